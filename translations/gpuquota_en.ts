<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>SelfServicePage</name>
    <message>
        <source>Signed in as %1, which is no budget user: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from the identity table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a ServiceAccount counts for its namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prefix removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>issuer removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e-mail local part</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the name as it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed in as %1: the budget of namespace %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed in as %1: budget user %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tomorrow %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit: %1 GPU-h used today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit: %1 GPU-h used this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit: %1 GPU-h used this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No budget: %1 GPU-h used today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this week, in grace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this month, in grace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 today, in grace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spent: %1 of %2 GPU-h used this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spent: %1 of %2 GPU-h used this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spent: %1 of %2 GPU-h used today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At this rate (%1 GPUs) it runs out at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At this rate (%1 GPUs) it lasts until the period ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In grace: at this rate (%1 GPUs) grace ends at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spent: no new GPU job can start this period.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is running now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours per day, last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>daily limit %1 GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quota of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quota of namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As of %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(%1 + %2 boost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Period</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grace ends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active boosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No boost is active.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 GPU-h on the budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 %2 on the quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happens at the limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU-hour budget applies: only the namespace&apos;s GPU quota limits what can run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When nothing is left, new GPU pods are refused until the budget starts again (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pods already running are not stopped at once: they may run on for a grace of %1 minutes at their current size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This budget has no grace period.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Need more? Ask your cluster admin for a boost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Newcomer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>newcomer allowance until %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::AboutDialog</name>
    <message>
        <source>About GPU Quota Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU Quota Console %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quotas, GPU-hour budgets and live GPUs of shared Kubernetes clusters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built with these libraries (as they report themselves):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window system:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy versions</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::AlertText</name>
    <message>
        <source>Boost request %1 approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost request %1 denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 approved your request %2: +%3 GPU-h on %4 until %5 (boost %6).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 denied your request %2 for more GPU-hours on %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU budget spent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU budget %1% used: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost %1 ends at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quota clamped in namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quota restored in namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gpuquota controller cannot write to its database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle GPUs held by %1 in namespace %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU pods admitted unchecked: the admission webhook is not called</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU pods were created since %2 without an admission review (%3); the last review any replica answered: %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-user budgets are not enforced for them. Check that the API server reaches the webhook (Service, port, the firewall of a private control plane) and accepts its certificate; see the controller&apos;s /readyz.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has used %2 of %3 GPU-h %4 (%5% or more of the budget).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left until %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is left until %1: new GPU jobs are refused until then.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The boost %1 on %2 (%3) ends at %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Work that needs it after that should finish or ask for an extension.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The budget of namespace %1 is spent: %2 was lowered from %3 to %4 (%5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running pods keep their GPUs; new GPU pods are refused until the quota is restored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in namespace %2 is back to %3 (%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writes have failed since %1; usage is kept in the spool until the database returns.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pod %1 (user %2) has held %3 GPUs without using them since %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h wasted so far. Please release them if the job is done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent by gpuquota-controller at %1 (alert %2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ApplyConfirmDialog</name>
    <message>
        <source>Review and apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On the server now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why? (optional, stored in the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply these changes to %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No changes to the specification.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ApplyFlow</name>
    <message>
        <source>Checking with the server (dry run)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for confirmation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applying...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The object changed on the server; fetching the current version...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server rejected the write with 409 Conflict: the object was changed by someone else after you started editing.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::AuditModel</name>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::AuditPage</name>
    <message>
        <source>Only the selected namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an entry to see what changed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No changes to %1 recorded yet.
Every change applied from this console is listed here with who made it and why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No changes recorded yet.
Every change applied from this console is listed here with who made it and why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>anyone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>any action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verify</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recompute the hash chain of the whole audit log and report the first entry that does not match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the entries shown (with these filters) as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No entry matches these filters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entry %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the audit entries shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n audit entries written to %1</source>
        <translation>
            <numerusform>%n audit entry written to %1</numerusform>
            <numerusform>%n audit entries written to %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verifying the audit chain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Intact: %n entries checked, every hash matches.</source>
        <translation>
            <numerusform>Intact: %n entry checked, its hash matches.</numerusform>
            <numerusform>Intact: %n entries checked, every hash matches.</numerusform>
        </translation>
    </message>
    <message>
        <source>Broken at entry %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostRequestModel</name>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no budget applies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; %2 used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 GPU-h until %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2 (boost %3): %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 at %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requester</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asked for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decision</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostDecisionDialog</name>
    <message>
        <source>Approve boost request %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny boost request %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 asks for +%2 GPU-h on %3 until %4: %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra GPU-hours:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your note for the boost (at least %1 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why is it denied? (at least %1 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a note of at least %1 characters saying why (%2 so far).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The end must be in the future.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostRequestsPanel</name>
    <message>
        <source>Approve…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost requests: %1 pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request %1 approved: boost %2 granted to %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request %1 denied.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a pending request first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request %1 is your own (%2): another admin must approve or deny it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostChangeDialog</name>
    <message>
        <source>Revoke boost %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extend boost %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 until %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New end:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why is it taken back early? (at least %1 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why does it last longer? (at least %1 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a note of at least %1 characters saying why (%2 so far).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new end must be in the future and after the start.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostGrantDialog</name>
    <message>
        <source>Namespace quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hour budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeat in a window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grant a boost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grant boost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ResourceQuota:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user or namespace name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget of:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. +4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 16</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4h, 2d, 1h30m</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nightly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weekends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weekdays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>zone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why? At least %1 characters; goes into the audit log, e.g. &quot;paper deadline on Friday&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ends:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Zone: &quot;%1&quot; is not a time zone (e.g. Europe/Berlin)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ends after: &quot;%1&quot; is not a duration (e.g. 4h, 2d, 1h30m)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quota entry selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1:  %2 → %3 → %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First window %1 to %2, then every window until %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 from %2 until %3, then back to %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only this boost&apos;s delta is taken back, so changes others make meanwhile stay.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+%1 GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counts towards the budget of %1 from %2 until %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a note of at least %1 characters saying why (%2 so far).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Say whose budget: a user or namespace name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No ClusterQueue flavor selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a ClusterQueue flavor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 %3:  %4 → %5 → %6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostListModel</name>
    <message>
        <source>scheduled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>applying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reverting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue %1 / %2: %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hour budget of user %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hour budget of namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (to %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Repeats until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nightly</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weekends</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>weekdays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (next retry %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failure</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostReconciler</name>
    <message>
        <source>ResourceQuota %1/%2 not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue is not installed (no %1 API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue serves %1; this version reads %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue %1 not found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the ClusterQueue kept changing on the server (409 Conflict)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ResourceQuota %1/%2 no longer has %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would become negative (%2 %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the quota kept changing on the server (409 Conflict)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the write was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the annotation still shows the old end: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BoostsPage</name>
    <message>
        <source>Grant boost…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extend…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expired or revoked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the boosts of every namespace and user, not only the selected namespace&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boosts: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost %1 recorded; it starts at its scheduled time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost %1 recorded; applying it to the cluster…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost %1 revoked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost %1 now ends %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster step failed; it is retried (see the Failure column).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost %1 is now %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No usage database is open. Boosts are recorded there before they touch the cluster; start the console with --usage-db URL or set one in Connections.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading boosts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No boost matches this filter. Tick &quot;All namespaces&quot; or show every state.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No boosts yet. &quot;Grant boost…&quot; raises a quota or budget for a while, with a note saying why, and takes it back on time.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BudgetDialog</name>
    <message>
        <source>New GPU-hour budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit GPU-hour budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete GPU-hour budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user name or namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Week (ISO, from Monday)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. 30m, 1h30m, 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why? (required; goes into the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scope:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Period:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time zone:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleting the budget lifts its limit: the subject may use GPUs without a GPU-hour cap.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grace: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BudgetEnforcer</name>
    <message>
        <source>usage database: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>listing ResourceQuotas: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>listing namespaces: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: usage database: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>listing pods: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the write was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the budget allows GPU work again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/%2: audit: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the quotas kept changing on the server (409 Conflict)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>newcomer allowances: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BudgetListModel</name>
    <message>
        <source>day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>less than a minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in grace until the period ends (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not at this rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at this rate: spent by %1 (in %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>at this rate: grace ends %1 (in %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spent for this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spent for this month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>spent for today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h / %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (+%1 boost)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h used this %3 (from %4); %5 GPUs held now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grace %1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no grace · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none yet this period</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (delivery failing, retried)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no alert sent yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last: %1% at %2 to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last: %1% at %2 by webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alerts are sent by gpuquota-controller when this budget&apos;s use crosses a threshold, once per threshold and period.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no limit / %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>newcomer allowance until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h + %2 without limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · budgets: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>subtotal of the budgets below</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sum of the budgets under this queue, each in its own period. A namespace budget is under its namespace&apos;s queue, a user budget under the queues of the namespaces the user ran in this period (several jointly).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BudgetService</name>
    <message>
        <source>The usage database is not open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BudgetUse</name>
    <message>
        <source>%1 of %2 GPU-h today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h this week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h this month</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::BudgetsPage</name>
    <message>
        <source>New budget…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget change recorded (audit entry %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading budgets…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU-hour budgets yet. Create one with &quot;New budget…&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The controller&apos;s page where a user sees their own quota and budgets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Self-service page for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No usage database is open yet: budgets are kept there (set it for this context under Connections).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Group by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets under the Kueue queue they are charged to, with subtotals: a namespace budget under its namespace&apos;s LocalQueue and that queue&apos;s ClusterQueue, a user budget under the queues of the namespaces the user ran in this period (several jointly; none: &quot;(no queue)&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::CanRunPanel</name>
    <message>
        <source>Plan a fine-tune…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Can this run?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expected hours:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a user or a namespace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, per %2: %3 used + %4 needed of %5 GPU-h (%6 left): %7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU-hour budget applies to this user or namespace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes: no GPU-hour budget applies (%1 GPU-h).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes: %1 GPU-h fit in the %2 GPU-h left.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No: it needs %1 GPU-h, only %2 are left (limit %3 per %4 of %5).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ChargebackModel</name>
    <message>
        <source>not recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 GPU-h at %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2 GPU-h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No idle spans were recorded for these GPUs in this month: the controller records them when it is given a metrics source. What was held is charged either way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used = held - idle. Idle: GPU-hours the controller found under the idle threshold in this month (idle spans).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Effective rate: the cost divided by the GPU-hours, charged as:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ChargebackPage</name>
    <message>
        <source>Rates file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The calendar month to charge, in the zone beside it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time zone of the month&apos;s first and last day (IANA name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One rate for every resource; a rates file replaces it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: one rate for all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A YAML rates file (default, resources, currency), as for gpuquota report chargeback --rates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Zone</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Per</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rates &amp;file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No usage database is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total: %1 GPU-h, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU-hours were recorded in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n subject(s).</source>
        <translation>
            <numerusform>%n subject.</numerusform>
            <numerusform>%n subjects.</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot make the report: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rates file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the chargeback as PDF</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the chargeback as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Saved %1 (%n page(s))</source>
        <translation>
            <numerusform>Saved %1 (%n page)</numerusform>
            <numerusform>Saved %1 (%n pages)</numerusform>
        </translation>
    </message>
    <message>
        <source> %1 per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used = held - idle, from the idle spans the controller recorded; &quot;not recorded&quot; where a subject has none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used and idle share: not recorded, no idle spans were recorded in this month (the controller records them when it has a metrics source).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 to %3 (%4) · Rate: %5&lt;br&gt;Charged: GPU-hours held (allocated). %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue queues: each namespace&apos;s GPU-hours go to its LocalQueue and that queue&apos;s ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ChargebackPdf</name>
    <message>
        <source>%1 per GPU-hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU chargeback %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Period: %1 to %2 (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Charged per %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Charged: GPU-hours held (allocated), whether or not the GPUs were busy.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Generated: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU-hours were recorded in this month.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used = held - idle, from the idle spans the controller recorded; not recorded where a subject has none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used and idle share: not recorded (no idle spans in the usage database for this month).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>* effective rate (cost / GPU-hours) of a subject charged several rates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue ClusterQueue (each namespace&apos;s usage to its LocalQueue&apos;s ClusterQueue)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue LocalQueue (each namespace&apos;s usage to its LocalQueue)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ClusterDiscovery</name>
    <message>
        <source>ConfigMap %1/%2 found: %3 settings advertised.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignored keys that look like secrets (%1): secrets belong in the keychain, enter them here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No ConfigMap %1/%2 (the controller is not installed, or older).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not allowed to read ConfigMap %1/%2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Service %1/%2 found: controller at %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not allowed to list pods in all namespaces: dcgm-exporter not looked for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 dcgm-exporter pods found (%2 services).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No dcgm-exporter pods found (labels %1).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ClusterUsagePage</name>
    <message>
        <source>GPU-hours by namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs allocated (average per bucket) vs GPU quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top users</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a user for their usage across namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a namespace for its usage by user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs allocated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU quota (all namespaces)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> of %1 in quotas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 GPU-h&lt;/b&gt; in the range &amp;middot; %2 namespaces &amp;middot; %3 users &amp;middot; GPUs allocated now: &lt;b&gt;%4&lt;/b&gt;%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue queues: each namespace&apos;s GPU-hours go to its LocalQueue and that queue&apos;s ClusterQueue (a namespace with several LocalQueues to all of them jointly; one without any to &quot;(no queue)&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Group by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours by Kueue ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours by Kueue LocalQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours of each queue&apos;s namespaces; group by Namespace to open one</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ConflictDialog</name>
    <message>
        <source>The object changed on the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone changed this object after you started editing. Nothing has been applied. Compare the three versions and choose how to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server&apos;s changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>both changed the same lines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What you started from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Three-way</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yours vs the server&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolve in the Editor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the merged text with conflict markers in the editor. Apply stays disabled until every marker is resolved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yes, Overwrite the Server&apos;s Changes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard Mine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throw away your edit and continue with the server&apos;s version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrite…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply your version over the server&apos;s (asks for confirmation).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebase My Change onto the Server&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply the changes you made on top of the server&apos;s current version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep Editing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close this view without changing anything; your text stays in the editor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The object changed on the server while you were editing it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed on the server while you were editing it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing has been applied. Compare the three versions and choose how to continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebase My Change onto the Server&apos;s…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebasing found 1 conflict: you and the server changed the same lines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rebasing found %1 conflicts: you and the server changed the same lines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(nothing)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolve them in the editor (keep one side of each, delete the markers), or choose Overwrite or Discard Mine.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s change since you started editing (1 line) will be lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s changes since you started editing (%1 lines) will be lost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrite replaces the server&apos;s version with yours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Are you sure?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ConnectionBanner</name>
    <message>
        <source>Cannot read the kubeconfig: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection to the cluster restored; the list is current again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted by the CA in your kubeconfig (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the certificate authority there: the kubeconfig is re-read automatically when it changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster rejected the credentials of this context (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kubeconfig is re-read automatically when it changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forbidden: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster answered with an error (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lost the connection to the cluster (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Reconnecting to %1 — next attempt in %n s.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The list may be out of date until then, and your edits are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not authorized: the credentials of this context were rejected (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster answered with an error: %1. Retrying automatically.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; is no longer in the kubeconfig. The console keeps its current connection; choose another context to switch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kubeconfig changed but cannot be used (%1). The console keeps its current connection and reads the file again when it changes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not secure: TLS certificate verification is off for the context &quot;%1&quot; (insecure-skip-tls-verify in the kubeconfig). Nothing proves that %2 is really your cluster, and anyone on the network path can read and change what is sent, credentials included.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the file (it is read again when it changes), or open another one with File &gt; Open kubeconfig.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ConnectionTests</name>
    <message>
        <source>TLS: the certificate of %1 is not trusted (%2); set the CA file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no answer from %1 within 10 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing listens there (connection refused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the host name is not known</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot reach %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>401: token rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>403: the token may not read this</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>404: nothing at %1 (check the URL and its path)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1 from %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no URL given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an http:// or https:// URL: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 days ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no database URL given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no database file at %1 yet (the console creates it when it opens this context)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>password rejected: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no intervals yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>newest %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connected, schema v%1, %2 intervals, %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none recorded yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered, but not like Prometheus (no version in /api/v1/status/buildinfo)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prometheus %1 reachable, but the GPU query failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prometheus %1 reachable, but no GPU reports DCGM_FI_DEV_GPU_UTIL (is dcgm-exporter scraped?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no exporter endpoints given</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>controller reachable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>controller reachable: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPUs and %2 MIG instances</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prometheus %1 reachable, %2 reporting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 endpoints answer, %3 reporting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>controller ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>controller not ready: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>controller unreachable: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ConnectionsTab</name>
    <message>
        <source>Test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use an embedded SQLite database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discover from the cluster...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sqlite:///path/usage.db or postgresql://user@host:5432/gpuquota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL only; kept in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prometheus</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dcgm-exporter endpoints (direct)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discover dcgm-exporter through the cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://prometheus.example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bearer token, optional; kept in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate (PEM file), optional</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one /metrics URL per line, e.g. http://gpu-node-1:9400/metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU metrics</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The live GPU page stays empty until a source is set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The console finds dcgm-exporter pods and services by their labels (app.kubernetes.io/name=dcgm-exporter, app=nvidia-dcgm-exporter) and reads them through the API server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controller</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The controller records GPU-hours into the usage database and enforces budgets; self-service and status pages talk to it here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is created when you save and the console opens it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the cluster for the controller&apos;s ConfigMap and for dcgm-exporter pods</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to this context first: discovery asks its API server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>choose a source first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the CA file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>connect to this context first: the exporters are found through its API server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the cluster...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discovery failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage database: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metrics: Prometheus at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Metrics: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Controller: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use what the cluster advertises?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster advertises these connections for the context &quot;%1&quot;:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passwords and tokens are never advertised; enter them here. Nothing is saved until you press OK or Apply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use these settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http://gpuquota-controller.gpuquota-system.svc:9464</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A password typed into a URL was moved to the keychain (%1); the URL is saved without it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ControllerIndicator</name>
    <message>
        <source>controller: asking...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (asked every minute)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::SignInIndicator</name>
    <message>
        <source>Waiting for sign-in: %1 (%2 s)… finish the login it opened, e.g. in your browser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signing in: %1 (%2 s)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kubeconfig&apos;s exec credential plugin is running; requests to the cluster wait for it (up to 5 minutes for a plugin that may ask you to log in).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::DemoLauncher</name>
    <message>
        <source>Could not start the demo cluster %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not create a temporary directory: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo cluster program was not found at %1. Build the gpuquota-testcluster target, or set GQ_TESTCLUSTER.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo cluster crashed. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The demo cluster exited with code %1. %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::DiffView</name>
    <message>
        <source>Previous change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No differences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 line changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lines changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 line added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lines added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 line removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 lines removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::DraftOfferBar</name>
    <message>
        <source>Restore</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put the draft back into the editor; nothing is applied until you press Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the draft with the object on the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Discard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the draft for good</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::DrillDownDialog</name>
    <message>
        <source>Intervals behind the bar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the intervals: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n interval(s), sum %1 GPU-h (the bar: %2 GPU-h)</source>
        <translation>
            <numerusform>%n interval, sum %1 GPU-h (the bar: %2 GPU-h)</numerusform>
            <numerusform>%n intervals, sum %1 GPU-h (the bar: %2 GPU-h)</numerusform>
        </translation>
    </message>
    <message>
        <source>Export intervals as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::DrillDownModel</name>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (estimated)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pod</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours in bucket</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ExporterDiscovery</name>
    <message>
        <source>not allowed to list pods in all namespaces, which finding dcgm-exporter needs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dcgm-exporter pod %1/%2 is %3: not read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read dcgm-exporter pod %1 through the API server: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no dcgm-exporter pods found (labels %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n dcgm-exporter pod(s) found, none running</source>
        <translation>
            <numerusform>%n dcgm-exporter pod found, not running</numerusform>
            <numerusform>%n dcgm-exporter pods found, none running</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 dcgm-exporter pods answer through the API server, %3 GPUs reporting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not connected to a cluster: dcgm-exporter is found through its API server</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::FindBar</name>
    <message>
        <source>Find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aa</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Match case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::HardLimitDelegate</name>
    <message>
        <source> GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GiB</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::IdleGpuModel</name>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MIG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pod</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle since</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean util.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-h wasted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open %1 and its quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::LeaderElector</name>
    <message>
        <source>leader election needs a cluster connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Lease&apos;s namespace is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the Lease&apos;s name is empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the lease duration must be positive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the renew deadline must be below the lease duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the retry period must be below the renew deadline</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::LimitRangeModel</name>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max limit/request</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::LimitRangePage</name>
    <message>
        <source>LimitRange:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a namespace on the left.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace %1 has no LimitRange. Create one from a template.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may not update LimitRanges in %1 (SelfSubjectAccessReview denied).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may not create LimitRanges in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No LimitRange selected</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::LiveGpuModel</name>
    <message>
        <source>Util. (%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (claim %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n/a</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> +%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 #%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MIG GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shared ×%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/%2 (container %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Shared by %n holder(s):</source>
        <translation>
            <numerusform>Shared by %n holder:</numerusform>
            <numerusform>Shared by %n holders:</numerusform>
        </translation>
    </message>
    <message>
        <source>Utilization over the last 15 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MIG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Utilization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory used / total</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Power</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Holder (namespace/pod)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shared</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 15 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · free</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, user %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::LiveGpuPage</name>
    <message>
        <source>The utilization history needs Prometheus: exporters scraped directly keep no history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by node, model, namespace or pod</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One row per GPU and MIG instance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One tile per GPU, coloured by utilization; an orange frame marks an allocated GPU under the idle threshold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean GPU utilization by namespace, last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source reported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU was allocated to a namespace in the last hour.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Showing the readings of %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the GPU metrics: %1. Retrying automatically.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the first GPU readings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No metrics source.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n busy</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n allocated but idle</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n free</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shared</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a reading</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>GPUs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle: allocated and under %1 % utilization now. A MIG instance counts as one GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle GPUs (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allocated GPUs under %1 % utilization for at least %2 (set in Preferences).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle detection needs Prometheus: exporters scraped directly keep no history.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None right now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prometheus said about the history: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle now: %1, with %2 GPU-hours wasted so far. Click a namespace to open its quota.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spans the controller recorded in the usage database, lasting at least %1 (the controller&apos;s threshold applies; utilization is not recorded).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read them: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ContextServices</name>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::MainWindow</name>
    <message>
        <source>Queues</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU Quota Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kubernetes context (from the kubeconfig)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quotas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit ranges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage database: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Context: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List everything again from the server (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Templates...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply a quota template to the selected namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU Quota Console — demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied; no usage database is open, so no audit entry was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>as %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Syncing...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>● Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconnecting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updated just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>updated %1 s ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading namespaces...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This cluster has no namespaces, or none this identity may list.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No connection; see the message above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (not in the kubeconfig)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chargeback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connections...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage database, metrics and controller of this context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open kubeconfig...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No kubeconfig was found at %1, and KUBECONFIG is not set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The kubeconfig %1 does not exist (yet). The console connects by itself once it is there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open kubeconfig</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configure the usage database...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; has no usage database. Create an embedded SQLite database for it, so that quota edits are audited and budgets can be set at once? GPU-hours are recorded by the gpuquota controller into the database it is given; point this context at that one under Connections when it runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create embedded database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created the usage database %1 for &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About GPU Quota Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This context</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configure the metrics source...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over the GPU-hour budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; has no usage database yet. GPU-hours, budgets, boosts, the audit trail and the chargeback are kept there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no GPU metrics source. The live GPU view reads NVIDIA dcgm-exporter&apos;s metrics, best through Prometheus (its URL, and a token or CA if it needs them), or by scraping the exporters&apos; /metrics endpoints directly, or by finding the exporter pods through the cluster and reading them through its API server (no history for these two: no sparklines and no idle list). Set one under Preferences &gt; Connections &gt; Metrics.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may not list every namespace of this cluster, so only %1 (the namespace of context %2) is shown. The server said: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::MessageBanner</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::NamespaceListModel</name>
    <message>
        <source>Terminating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This namespace is being deleted (Terminating): the API server refuses new objects in it, so its quotas cannot be created or edited.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>over budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>near limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of the limit used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No quota limits this resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At least one resource is at 80% of its hard limit or more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU (cores)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hour budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over its GPU-hour budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No ResourceQuota limits this namespace; create one from a template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grace until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>near budget</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Over its GPU-hour budget: %1 — grace (%2) is over; new and running jobs are denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over its GPU-hour budget: %1 — no grace; new and running jobs are denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over its GPU-hour budget: %1 — running jobs may continue until %2 (grace %3); new jobs are denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Near its GPU-hour budget: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) running here over their own GPU-hour budget: %1</source>
        <translation>
            <numerusform>%n user running here over their own GPU-hour budget: %1</numerusform>
            <numerusform>%n users running here over their own GPU-hour budget: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Counts MIG slices (%1), not whole GPUs: this namespace&apos;s quota limits only those.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Counts %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs from DRA claims of the device class %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Whole GPUs (requests.nvidia.com/gpu). Where a namespace&apos;s quota limits only MIG slices, its row counts those slices; the cell&apos;s tooltip names the resource.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs / MIG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live: %1 GPU(s) held at %2% mean utilization</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alerts go to: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not yet enforced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not enforced yet: quota admission still applies the old value until kube-controller-manager copies the new limit to the quota&apos;s status (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 → %2 %3/%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No Kueue LocalQueue in this namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>LocalQueue %1 → ClusterQueue %2: %3 of %4 nominal GPUs reserved, %n pending workload(s)</source>
        <translation>
            <numerusform>LocalQueue %1 → ClusterQueue %2: %3 of %4 nominal GPUs reserved, %n pending workload</numerusform>
            <numerusform>LocalQueue %1 → ClusterQueue %2: %3 of %4 nominal GPUs reserved, %n pending workloads</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gq::NamespacePanel</name>
    <message>
        <source>Plan a fine-tune…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter namespaces (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n namespace(s)</source>
        <translation>
            <numerusform>%n namespace</numerusform>
            <numerusform>%n namespaces</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n namespace(s)</source>
        <translation>
            <numerusform>%1 of %n namespace</numerusform>
            <numerusform>%1 of %n namespaces</numerusform>
        </translation>
    </message>
    <message>
        <source>No namespace matches “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create quota from template...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply a template...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::NamespaceUsagePage</name>
    <message>
        <source>Budget period</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the current period of the namespace&apos;s budget, with its line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a user for their usage across namespaces</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours in %1 by user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no GPU-hour budget.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::ObjectPage</name>
    <message>
        <source>New from template...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An unsaved draft of %1/%2 from %3 was found.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The object has changed on the server since; Restore lets you rebase the draft onto it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The draft of %1/%2 is no longer there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your draft was written against an older version of this object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft of %1/%2 restored; review it and press Apply when ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft of %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On the server now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your draft</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draft of %1/%2 discarded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking your permissions...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create a ResourceQuota and LimitRange from a template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First restore or discard the unsaved draft found for this object (the bar above).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the errors marked in the editor first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate, dry-run on the server, review the diff, then apply (Ctrl+S)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply refused: the YAML has errors (first on line %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply cancelled; your edit is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> at line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conflict left open: your edit is kept, nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your version is now based on the server&apos;s; press Apply to overwrite.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your change was rebased onto the server&apos;s version; review and Apply.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your change was discarded; showing the server&apos;s version.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Someone changed this %1 on the server while you were editing it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2/%3 was deleted on the server; your edit is kept in the editor.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::PreferencesDialog</name>
    <message>
        <source>The page open when the window was closed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quotas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit ranges</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budgets</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chargeback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System time zone (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the banner above the content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the status bar only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not shown (the list marks still show)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Display</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new language shows after the console is restarted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time zone for charts and budgets:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start page:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alerts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh and idle GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget and usage refresh:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live GPU refresh:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A GPU is idle below:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for at least:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rate per GPU-hour:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Currency:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A MIG slice is charged its fraction of a GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boosts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The Live GPUs page marks GPUs idle with these thresholds. The chargeback&apos;s idle share comes from the idle spans the controller records, with the thresholds of its own configuration.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QuotaPage</name>
    <message>
        <source>Not counted by quota: %1. Extended resources are limited only as requests.&lt;name&gt;; these entries limit nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit as YAML</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One GPU less (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One GPU more (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>limit, e.g. 4 or 64Gi</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate, dry-run on the server, review the diff, then apply (Ctrl+S)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ResourceQuota:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a namespace on the left.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the YAML before switching to the table: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a resource name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a quantity: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is already in the quota; edit its hard limit instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may not update ResourceQuotas in %1 (SelfSubjectAccessReview denied%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You may not create ResourceQuotas in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No ResourceQuota selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a resource to the quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop limiting the selected resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Below current use: %1. Pods already running keep running, but new pods will be rejected by the API server until use falls below the new limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the new limit is below current use; running pods keep running, new pods will be rejected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open file...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save to file...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load a manifest from a file into the YAML editor (undoable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the YAML as it is now to a file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a ResourceQuota manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The YAML editor has its own undo (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Undo: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The YAML editor has its own redo (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redo: %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create quota from template...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace %1 has no ResourceQuota, so its pods may use any number of GPUs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boost this resource…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QuotaTableModel</name>
    <message>
        <source>not counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ignored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Managed by %1: your change will be reverted on its next sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API server accepts %1 but quota never counts it: extended resources are limited in quota only as requests.%2. This entry limits nothing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is managed by %2: your change will be reverted on its next sync</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (was %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>removed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>over</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The new limit is below current use (%1). Existing pods keep running, but new ones will be rejected until use falls below the limit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This resource will no longer be limited once applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New resource, not yet applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed from %1, not yet applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click to edit the hard limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hard limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Usage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set %1 to %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revert all changes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QuotaWriter</name>
    <message>
        <source>Not connected to a cluster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name cannot change from &quot;%1&quot; to &quot;%2&quot;; create a new object instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The object names namespace &quot;%1&quot; but is being applied to &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>changed on the server since your last apply (base %1, server %2, yours %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 fields changed on the server since your last apply</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::RankingModel</name>
    <message>
        <source>Subject</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>near: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in grace: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>over: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::SecretStore</name>
    <message>
        <source>No OS keychain is available (%1): secrets are kept in memory for this session only and must be entered again next time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keychain service is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not supported on this system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keychain service did not answer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keychain: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no secret is stored for %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::StackedChart</name>
    <message>
        <source>W%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ISO week %1 of %2, from %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cumulative</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>budget %1 GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>d MMM</source>
        <comment>date format of a day bar</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MMM yyyy</source>
        <comment>date format of a month bar</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MMMM yyyy</source>
        <comment>date format of a month title</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>budget %1 GPU-h per %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::StartPage</name>
    <message>
        <source>Welcome to GPU Quota Console</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The console works on a Kubernetes cluster through your kubeconfig. It needs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A kubeconfig&lt;/b&gt; with a context for the cluster (the file &lt;tt&gt;kubectl&lt;/tt&gt; uses). Required.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A usage database&lt;/b&gt; for budgets, GPU-hours and the audit trail: an embedded SQLite file is offered for each context, or the PostgreSQL your controller writes to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;A metrics source&lt;/b&gt; for the live GPU view: Prometheus, or dcgm-exporter directly. Optional.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;The gpuquota controller&lt;/b&gt; in the cluster records GPU-hours and enforces budgets. Optional for quotas and limits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open kubeconfig...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A local test cluster with made-up teams, started just for this window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting up a cluster (controller, database, metrics): &lt;a href=&quot;%1&quot;&gt;the deployment guide&lt;/a&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::TemplateDialog</name>
    <message>
        <source>Save as template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply a template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name for your template</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview first: every object is dry-run on the server before anything is written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespaces:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (built in)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the template: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved template &quot;%1&quot; in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick at least one namespace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The template has errors; see the marks in the editor.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Template: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>create</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking...</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Dry run of %n object(s)...</source>
        <translation>
            <numerusform>Dry run of %n object...</numerusform>
            <numerusform>Dry run of %n objects...</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply to %n namespace(s)</source>
        <translation>
            <numerusform>Apply to %n namespace</numerusform>
            <numerusform>Apply to %n namespaces</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Dry run passed for all %n object(s). Apply writes them.</source>
        <translation>
            <numerusform>Dry run passed for the object. Apply writes it.</numerusform>
            <numerusform>Dry run passed for all %n objects. Apply writes them.</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 objects would fail; fix the template or the targets.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied %1 of %2 objects.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>conflict: changed on the server since the preview; not overwritten</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ok (dry run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>applied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from template &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not previewed; not written</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::UsageChart</name>
    <message numerus="yes">
        <source>%1 (%n subjects)</source>
        <translation>
            <numerusform>%1 (%n subject)</numerusform>
            <numerusform>%1 (%n subjects)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
%2: %3 %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::UsageChartModel</name>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>others</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-h</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::UsageChartPanel</name>
    <message>
        <source>Reading usage... %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart as PNG...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chart as SVG...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data as CSV (every subject)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read usage: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No usage database is open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No GPU usage recorded in this range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 (%n subjects)</source>
        <translation>
            <numerusform>%1, %2 (%n subject)</numerusform>
            <numerusform>%1, %2 (%n subjects)</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::UsageRangeBar</name>
    <message>
        <source>Today</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per ISO week</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per month</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The length of one bar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time zone of the buckets (IANA name): where a day, week or month starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Range:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Buckets in:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown time zone &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>UTC%1%2:%3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::UsageService</name>
    <message>
        <source>The usage database is not open; the change was applied but not recorded in the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The usage database is not open; the budget was not saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The usage database is not open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::UserUsageDialog</name>
    <message>
        <source>Usage of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU-hours of %1 by namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no GPU-hour budget.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::YamlEditor</name>
    <message>
        <source>unresolved merge conflict: keep your lines or the server&apos;s, then delete the &lt;&lt;&lt;&lt;&lt;&lt;&lt;, ======= and &gt;&gt;&gt;&gt;&gt;&gt;&gt; markers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Canonicalize Quantities</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rewrite every quantity the way the API server prints it (1000m → 1, 1.5Gi → 1536Mi)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no object: expected a ResourceQuota or LimitRange manifest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The editor is read-only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is too large for a manifest (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not UTF-8 text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to go there; click again for the next problem.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Demo mode: a local test cluster with eight made-up GPU teams, a GPU metrics exporter and the gpuquota controller, all started just for this window and removed when you close it; nothing here touches a real cluster. The controller records pods you start yourself: kubectl --kubeconfig %1 run ... To use a real cluster, start the console without --demo (or choose File &gt; Open kubeconfig...) and set its usage database, metrics and controller under Connections.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::FitMemoryBar</name>
    <message>
        <source>weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overhead</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::FitPlanDialog</name>
    <message>
        <source>Plan a fine-tune</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>By parameter count</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Auto (ZeRO-3 on more than one GPU)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>namespace (optional)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user (for the budget)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ZeRO stage:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LoRA rank:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run length:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Namespace:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An estimate within about 15–20 %: it does not count the data loader, the evaluation pass or other processes on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms-swift flags (swift sft):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the quota of %1 and the GPU nodes…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not read the cluster: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no GPU quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 GPUs free in the quota; %3, %4 each</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 GPUs free in the quota; GPU memory unknown (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Full fine-tuning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — no GPU left to run on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, ZeRO-%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✔ %1 — fits: %2 per GPU ≤ %3 (GPUs: %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>✘ %1 — does not fit: %2 per GPU &gt; %3 (GPUs: %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter a parameter count such as 7B, 6.74e9 or 7000000000.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 GPUs: %3 per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing fits on these GPUs; the closest is %1 at %2 per GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h (%2 GPUs × %3 h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget: enter a user to check the GPU-hours against their budget.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget: checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>BoostRequestForm</name>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request #%1 sent: an admin approves or denies it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was not sent: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask for more GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1: %2 GPU-h until %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Extra GPU-hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 day</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why (at least 10 characters)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. paper deadline on Friday, final runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The decision shows here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FitAdvisorForm</name>
    <message>
        <source>Will this fine-tune fit?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An estimate within about 15–20 %: it does not count the data loader, the evaluation pass or other processes on the GPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>or parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gpu_memory: give the memory of one GPU (e.g. 80G)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on %2 GPUs: %3 per GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing fits on %1 GPUs of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per GPU: weights %1, gradients %2, optimizer %3, activations %4, overhead %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 GPU-h (%2 GPUs × %3 h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ms-swift flags:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QueueTreeModel</name>
    <message>
        <source>Cohort / ClusterQueue / flavor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nominal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Borrowing limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lending limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Borrowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (stopped)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>LocalQueue %1 in namespace %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort %1 (no Cohort object)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cohort %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::WorkloadListModel</name>
    <message>
        <source>Namespace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Position</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flavor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>admitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>quota reserved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QueuesPage</name>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workloads: pending in the order Kueue tries them, then admitted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kueue is not installed on this cluster (no kueue.x-k8s.io API).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read Kueue&apos;s queues: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n · read-only</source>
        <translation>
            <numerusform>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n · read-only</numerusform>
            <numerusform>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n · read-only</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading Kueue&apos;s queues…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · refreshing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking whether you may edit Kueue&apos;s queues…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: you may not update ClusterQueues (SelfSubjectAccessReview denied update clusterqueues.kueue.x-k8s.io).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: you may not update ClusterQueues (SelfSubjectAccessReview denied update clusterqueues.kueue.x-k8s.io: %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the selected flavor&apos;s GPU nominal quota, borrowing or lending limit (or double-click a number)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the selected Cohort, ClusterQueue, ResourceFlavor or LocalQueue as YAML</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit GPU quota…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit YAML…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n</source>
        <translation>
            <numerusform>Kueue API kueue.x-k8s.io/%1 · ClusterQueue: %n</numerusform>
            <numerusform>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking whether you may edit the LocalQueues of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: you may not update LocalQueues in %1 (SelfSubjectAccessReview denied update localqueues.kueue.x-k8s.io there).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read-only: you may not update LocalQueues in %1 (SelfSubjectAccessReview denied update localqueues.kueue.x-k8s.io there: %2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QueueQuotaDialog</name>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the ClusterQueue: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set (no limit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply cancelled; nothing was written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied ClusterQueue %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ClusterQueue changed on the server; it is shown as it is now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit GPU quota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue %1 · flavor %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nominal quota (nominalQuota)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Borrowing limit (borrowingLimit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lending limit (lendingLimit)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No limit (remove the field)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Review and apply…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On the server now:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New value:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QueueYamlDialog</name>
    <message>
        <source>Edit %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2/%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1: %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> at line %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Apply cancelled; your edit is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applied %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The text now holds the resolution; Apply writes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The object changed on the server; your edit is kept.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gq::QueueBoostTarget</name>
    <message>
        <source>nominalQuota</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>borrowingLimit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nominalQuota: the queue&apos;s own GPUs; borrowingLimit: how many more it may borrow from its cohort</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ClusterQueue:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Flavor:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Field:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No cluster connection to read Kueue&apos;s ClusterQueues from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading Kueue&apos;s ClusterQueues…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read Kueue&apos;s ClusterQueues: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The cluster has no Kueue ClusterQueue.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

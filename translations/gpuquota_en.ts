<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
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
        <source>The name cannot change from &quot;%1&quot; to &quot;%2&quot;; create a new object instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The object names namespace &quot;%1&quot; but is being applied to &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
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
    <name>gq::MainWindow</name>
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
        <source>Cannot read the kubeconfig: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU Quota Console — demo</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forbidden: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not authorized: the credentials of this context were rejected (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
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
        <source>Start with --kubeconfig FILE --context NAME, or try --demo for a local demo cluster.</source>
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
        <source>The cluster answered with an error: %1. Retrying automatically.</source>
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
        <source>%1 (not in the kubeconfig)</source>
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
</context>
<context>
    <name>gq::NamespacePanel</name>
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
    <name>gq::QuotaPage</name>
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
</context>
<context>
    <name>gq::QuotaTableModel</name>
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
</context>
<context>
    <name>gq::UsageDatabase</name>
    <message>
        <source>The usage database is not open; the change was applied but not recorded in the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The usage database is not open; the budget was not saved.</source>
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
        <source>Demo mode: a local test cluster with made-up teams, started just for this window. Nothing you change here touches a real cluster; it is all removed when you close the window.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

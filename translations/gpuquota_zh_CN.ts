<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>SelfServicePage</name>
    <message>
        <source>Signed in as %1, which is no budget user: %2</source>
        <translation>以 %1 登录，但该名称不对应任何预算用户：%2</translation>
    </message>
    <message>
        <source>from the identity table</source>
        <translation>来自身份映射表</translation>
    </message>
    <message>
        <source>a ServiceAccount counts for its namespace</source>
        <translation>ServiceAccount 计入其所在命名空间</translation>
    </message>
    <message>
        <source>prefix removed</source>
        <translation>已去除前缀</translation>
    </message>
    <message>
        <source>issuer removed</source>
        <translation>已去除签发者</translation>
    </message>
    <message>
        <source>e-mail local part</source>
        <translation>电子邮件地址 @ 之前的部分</translation>
    </message>
    <message>
        <source>the name as it is</source>
        <translation>按原名</translation>
    </message>
    <message>
        <source>Signed in as %1: the budget of namespace %2 (%3)</source>
        <translation>以 %1 登录：命名空间 %2 的预算（%3）</translation>
    </message>
    <message>
        <source>Signed in as %1: budget user %2 (%3)</source>
        <translation>以 %1 登录：预算用户 %2（%3）</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>tomorrow %1</source>
        <translation>明天 %1</translation>
    </message>
    <message>
        <source>No limit: %1 GPU-h used today</source>
        <translation>不限：今日已用 %1 GPU 小时</translation>
    </message>
    <message>
        <source>No limit: %1 GPU-h used this week</source>
        <translation>不限：本周已用 %1 GPU 小时</translation>
    </message>
    <message>
        <source>No limit: %1 GPU-h used this month</source>
        <translation>不限：本月已用 %1 GPU 小时</translation>
    </message>
    <message>
        <source>No budget: %1 GPU-h used today</source>
        <translation>没有预算：今日已用 %1 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this week</source>
        <translation>本周剩余 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this month</source>
        <translation>本月剩余 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 today</source>
        <translation>今日剩余 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this week, in grace</source>
        <translation>本周超出 %2 GPU 小时的限额 %1，处于宽限期</translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this month, in grace</source>
        <translation>本月超出 %2 GPU 小时的限额 %1，处于宽限期</translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 today, in grace</source>
        <translation>今日超出 %2 GPU 小时的限额 %1，处于宽限期</translation>
    </message>
    <message>
        <source>Spent: %1 of %2 GPU-h used this week</source>
        <translation>已用完：本周已用 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>Spent: %1 of %2 GPU-h used this month</source>
        <translation>已用完：本月已用 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>Spent: %1 of %2 GPU-h used today</source>
        <translation>已用完：今日已用 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>At this rate (%1 GPUs) it runs out at %2.</source>
        <translation>按当前速率（%1 个 GPU），将于 %2 用完。</translation>
    </message>
    <message>
        <source>At this rate (%1 GPUs) it lasts until the period ends.</source>
        <translation>按当前速率（%1 个 GPU），可用到本周期结束。</translation>
    </message>
    <message>
        <source>In grace: at this rate (%1 GPUs) grace ends at %2.</source>
        <translation>宽限期中：按当前速率（%1 个 GPU），宽限期于 %2 结束。</translation>
    </message>
    <message>
        <source>Spent: no new GPU job can start this period.</source>
        <translation>已用完：本周期内不能再启动新的 GPU 作业。</translation>
    </message>
    <message>
        <source>Nothing is running now.</source>
        <translation>当前没有运行中的作业。</translation>
    </message>
    <message>
        <source>GPU-hours per day, last 30 days</source>
        <translation>最近 30 天每天的 GPU 小时</translation>
    </message>
    <message>
        <source>today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>daily limit %1 GPU-h</source>
        <translation>每日限额 %1 GPU 小时</translation>
    </message>
    <message>
        <source>GPU quota</source>
        <translation>GPU 配额</translation>
    </message>
    <message>
        <source>GPU quota of %1</source>
        <translation>%1 的 GPU 配额</translation>
    </message>
    <message>
        <source>GPU quota of namespace %1</source>
        <translation>命名空间 %1 的 GPU 配额</translation>
    </message>
    <message>
        <source>As of %1 (%2)</source>
        <translation>截至 %1（%2）</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>%1 GPU-h</source>
        <translation>%1 GPU 小时</translation>
    </message>
    <message>
        <source>(%1 + %2 boost)</source>
        <translation>（%1 + 临时提升 %2）</translation>
    </message>
    <message>
        <source>Limit</source>
        <translation>限额</translation>
    </message>
    <message>
        <source>Left</source>
        <translation>剩余</translation>
    </message>
    <message>
        <source>Period</source>
        <translation>周期</translation>
    </message>
    <message>
        <source>Forecast</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Grace ends</source>
        <translation>宽限期结束</translation>
    </message>
    <message>
        <source>Last 30 days</source>
        <translation>最近 30 天</translation>
    </message>
    <message>
        <source>Active boosts</source>
        <translation>生效中的临时提升</translation>
    </message>
    <message>
        <source>No boost is active.</source>
        <translation>没有生效中的临时提升。</translation>
    </message>
    <message>
        <source>+%1 GPU-h on the budget</source>
        <translation>预算 +%1 GPU 小时</translation>
    </message>
    <message>
        <source>+%1 %2 on the quota</source>
        <translation>配额 %2 +%1</translation>
    </message>
    <message>
        <source>until %1</source>
        <translation>至 %1</translation>
    </message>
    <message>
        <source>What happens at the limit</source>
        <translation>用完限额时会怎样</translation>
    </message>
    <message>
        <source>No GPU-hour budget applies: only the namespace&apos;s GPU quota limits what can run.</source>
        <translation>没有适用的 GPU 小时预算：只有命名空间的 GPU 配额限制可运行的作业。</translation>
    </message>
    <message>
        <source>When nothing is left, new GPU pods are refused until the budget starts again (%1).</source>
        <translation>额度用完后，新的 GPU Pod 会被拒绝，直到预算重新开始（%1）。</translation>
    </message>
    <message>
        <source>Pods already running are not stopped at once: they may run on for a grace of %1 minutes at their current size.</source>
        <translation>已在运行的 Pod 不会被立即停止：它们可按当前规模在 %1 分钟的宽限期内继续运行。</translation>
    </message>
    <message>
        <source>This budget has no grace period.</source>
        <translation>此预算没有宽限期。</translation>
    </message>
    <message>
        <source>Need more? Ask your cluster admin for a boost.</source>
        <translation>需要更多？请向集群管理员申请临时提升。</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Newcomer</source>
        <translation>新人额度</translation>
    </message>
    <message>
        <source>newcomer allowance until %1</source>
        <translation>新人额度至 %1</translation>
    </message>
</context>
<context>
    <name>gq::AboutDialog</name>
    <message>
        <source>About GPU Quota Console</source>
        <translation>关于 GPU 配额控制台</translation>
    </message>
    <message>
        <source>GPU Quota Console %1</source>
        <translation>GPU 配额控制台 %1</translation>
    </message>
    <message>
        <source>GPU quotas, GPU-hour budgets and live GPUs of shared Kubernetes clusters.</source>
        <translation>共享 Kubernetes 集群的 GPU 配额、GPU 小时预算与实时 GPU。</translation>
    </message>
    <message>
        <source>Built with these libraries (as they report themselves):</source>
        <translation>所用的库（版本由各库自身报告）：</translation>
    </message>
    <message>
        <source>Window system:</source>
        <translation>窗口系统：</translation>
    </message>
    <message>
        <source>Copy versions</source>
        <translation>复制版本信息</translation>
    </message>
</context>
<context>
    <name>gq::AlertText</name>
    <message>
        <source>Boost request %1 approved</source>
        <translation>临时提额申请 %1 已批准</translation>
    </message>
    <message>
        <source>Boost request %1 denied</source>
        <translation>临时提额申请 %1 已被拒绝</translation>
    </message>
    <message>
        <source>%1 approved your request %2: +%3 GPU-h on %4 until %5 (boost %6).</source>
        <translation>%1 批准了您的申请 %2：%4 增加 %3 GPU 小时，至 %5（临时提额 %6）。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>%1 denied your request %2 for more GPU-hours on %3.</source>
        <translation>%1 拒绝了您为 %3 增加 GPU 小时的申请 %2。</translation>
    </message>
    <message>
        <source>Reason: %1</source>
        <translation>理由：%1</translation>
    </message>
    <message>
        <source>user %1</source>
        <translation>用户 %1</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>命名空间 %1</translation>
    </message>
    <message>
        <source>User %1</source>
        <translation>用户 %1</translation>
    </message>
    <message>
        <source>Namespace %1</source>
        <translation>命名空间 %1</translation>
    </message>
    <message>
        <source>this hour</source>
        <translation>本小时</translation>
    </message>
    <message>
        <source>today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>this week</source>
        <translation>本周</translation>
    </message>
    <message>
        <source>this month</source>
        <translation>本月</translation>
    </message>
    <message>
        <source>GPU budget spent: %1</source>
        <translation>GPU 预算已用完：%1</translation>
    </message>
    <message>
        <source>GPU budget %1% used: %2</source>
        <translation>GPU 预算已用 %1%：%2</translation>
    </message>
    <message>
        <source>Boost %1 ends at %2</source>
        <translation>提升 %1 将于 %2 结束</translation>
    </message>
    <message>
        <source>GPU quota clamped in namespace %1</source>
        <translation>命名空间 %1 的 GPU 配额已被收紧</translation>
    </message>
    <message>
        <source>GPU quota restored in namespace %1</source>
        <translation>命名空间 %1 的 GPU 配额已恢复</translation>
    </message>
    <message>
        <source>gpuquota controller cannot write to its database</source>
        <translation>gpuquota 控制器无法写入其数据库</translation>
    </message>
    <message>
        <source>Idle GPUs held by %1 in namespace %2</source>
        <translation>命名空间 %2 中的 %1 占用着空闲 GPU</translation>
    </message>
    <message>
        <source>GPU pods admitted unchecked: the admission webhook is not called</source>
        <translation>未经检查即被准入的 GPU Pod：准入 webhook 没有被调用</translation>
    </message>
    <message>
        <source>%1 GPU pods were created since %2 without an admission review (%3); the last review any replica answered: %4.</source>
        <translation>自 %2 起有 %1 个 GPU Pod 在没有准入审查的情况下被创建（%3）；任一副本最近一次应答的审查：%4。</translation>
    </message>
    <message>
        <source>Per-user budgets are not enforced for them. Check that the API server reaches the webhook (Service, port, the firewall of a private control plane) and accepts its certificate; see the controller&apos;s /readyz.</source>
        <translation>这些 Pod 未执行按用户的预算。请检查 API 服务器能否访问 webhook（Service、端口、私有控制平面的防火墙）并接受其证书；参见控制器的 /readyz。</translation>
    </message>
    <message>
        <source>never</source>
        <translation>从未</translation>
    </message>
    <message>
        <source>%1 has used %2 of %3 GPU-h %4 (%5% or more of the budget).</source>
        <translation>%1 %4已使用 %2 / %3 GPU 小时（达到预算的 %5% 或以上）。</translation>
    </message>
    <message>
        <source>%1 GPU-h left until %2.</source>
        <translation>到 %2 为止还剩 %1 GPU 小时。</translation>
    </message>
    <message>
        <source>Nothing is left until %1: new GPU jobs are refused until then.</source>
        <translation>到 %1 为止已无剩余：在此之前新的 GPU 作业将被拒绝。</translation>
    </message>
    <message>
        <source>The boost %1 on %2 (%3) ends at %4.</source>
        <translation>%2 上的提升 %1（%3）将于 %4 结束。</translation>
    </message>
    <message>
        <source>Work that needs it after that should finish or ask for an extension.</source>
        <translation>之后仍需要它的作业应尽快完成，或申请延期。</translation>
    </message>
    <message>
        <source>The budget of namespace %1 is spent: %2 was lowered from %3 to %4 (%5).</source>
        <translation>命名空间 %1 的预算已用完：%2 已从 %3 降至 %4（%5）。</translation>
    </message>
    <message>
        <source>Running pods keep their GPUs; new GPU pods are refused until the quota is restored.</source>
        <translation>运行中的 Pod 保留其 GPU；在配额恢复之前，新的 GPU Pod 将被拒绝。</translation>
    </message>
    <message>
        <source>%1 in namespace %2 is back to %3 (%4).</source>
        <translation>命名空间 %2 中的 %1 已恢复为 %3（%4）。</translation>
    </message>
    <message>
        <source>Writes have failed since %1; usage is kept in the spool until the database returns.</source>
        <translation>自 %1 起写入失败；在数据库恢复之前，用量保存在缓冲文件中。</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>最近的错误：%1</translation>
    </message>
    <message>
        <source>Pod %1 (user %2) has held %3 GPUs without using them since %4.</source>
        <translation>Pod %1（用户 %2）自 %4 起占用 %3 个 GPU 却未使用。</translation>
    </message>
    <message>
        <source>%1 GPU-h wasted so far. Please release them if the job is done.</source>
        <translation>目前已浪费 %1 GPU 小时。如果作业已完成，请释放它们。</translation>
    </message>
    <message>
        <source>Sent by gpuquota-controller at %1 (alert %2).</source>
        <translation>由 gpuquota-controller 于 %1 发送（告警 %2）。</translation>
    </message>
</context>
<context>
    <name>gq::ApplyConfirmDialog</name>
    <message>
        <source>Review and apply</source>
        <translation>检查并应用</translation>
    </message>
    <message>
        <source>On the server now</source>
        <translation>服务器上的当前版本</translation>
    </message>
    <message>
        <source>After apply</source>
        <translation>应用之后</translation>
    </message>
    <message>
        <source>Why? (optional, stored in the audit log)</source>
        <translation>原因（可选，记入审计日志）</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Changes:</source>
        <translation>变更：</translation>
    </message>
    <message>
        <source>Apply these changes to %1?</source>
        <translation>将这些变更应用到 %1？</translation>
    </message>
    <message>
        <source>No changes to the specification.</source>
        <translation>规格没有变更。</translation>
    </message>
</context>
<context>
    <name>gq::ApplyFlow</name>
    <message>
        <source>Checking with the server (dry run)...</source>
        <translation>正在向服务器核验（试运行）……</translation>
    </message>
    <message>
        <source>Waiting for confirmation</source>
        <translation>等待确认</translation>
    </message>
    <message>
        <source>Applying...</source>
        <translation>正在应用……</translation>
    </message>
    <message>
        <source>The object changed on the server; fetching the current version...</source>
        <translation>服务器上的对象已变更；正在获取当前版本……</translation>
    </message>
    <message>
        <source>The server rejected the write with 409 Conflict: the object was changed by someone else after you started editing.</source>
        <translation>服务器以 409 冲突拒绝了写入：在你开始编辑后，其他人修改了该对象。</translation>
    </message>
</context>
<context>
    <name>gq::AuditModel</name>
    <message>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
</context>
<context>
    <name>gq::AuditPage</name>
    <message>
        <source>Only the selected namespace</source>
        <translation>仅显示所选命名空间</translation>
    </message>
    <message>
        <source>Select an entry to see what changed.</source>
        <translation>选择一条记录以查看变更内容。</translation>
    </message>
    <message>
        <source>Note: %1</source>
        <translation>备注：%1</translation>
    </message>
    <message>
        <source>No changes to %1 recorded yet.
Every change applied from this console is listed here with who made it and why.</source>
        <translation>%1 尚无变更记录。
在此控制台中应用的每一项变更都会列在这里，并注明操作者和原因。</translation>
    </message>
    <message>
        <source>No changes recorded yet.
Every change applied from this console is listed here with who made it and why.</source>
        <translation>尚无变更记录。
在此控制台中应用的每一项变更都会列在这里，并注明操作者和原因。</translation>
    </message>
    <message>
        <source>any namespace</source>
        <translation>任意命名空间</translation>
    </message>
    <message>
        <source>anyone</source>
        <translation>任何人</translation>
    </message>
    <message>
        <source>any action</source>
        <translation>任意操作</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>to</source>
        <translation>到</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Verify</source>
        <translation>校验</translation>
    </message>
    <message>
        <source>Recompute the hash chain of the whole audit log and report the first entry that does not match</source>
        <translation>重新计算整个审计日志的哈希链，并报告第一条不匹配的记录</translation>
    </message>
    <message>
        <source>Save the entries shown (with these filters) as CSV</source>
        <translation>将当前显示（按这些筛选条件）的记录保存为 CSV</translation>
    </message>
    <message>
        <source>No entry matches these filters.</source>
        <translation>没有符合这些筛选条件的记录。</translation>
    </message>
    <message>
        <source>Entry %1: %2</source>
        <translation>记录 %1：%2</translation>
    </message>
    <message>
        <source>Export the audit entries shown</source>
        <translation>导出当前显示的审计记录</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message numerus="yes">
        <source>%n audit entries written to %1</source>
        <translation>
            <numerusform>已将 %n 条审计记录写入 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Verifying the audit chain…</source>
        <translation>正在校验审计链…</translation>
    </message>
    <message numerus="yes">
        <source>Intact: %n entries checked, every hash matches.</source>
        <translation>
            <numerusform>完好：已检查 %n 条记录，所有哈希均匹配。</numerusform>
        </translation>
    </message>
    <message>
        <source>Broken at entry %1: %2</source>
        <translation>在记录 %1 处损坏：%2</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
</context>
<context>
    <name>gq::BoostRequestModel</name>
    <message>
        <source>pending</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>已撤回</translation>
    </message>
    <message>
        <source>user %1</source>
        <translation>用户 %1</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>命名空间 %1</translation>
    </message>
    <message>
        <source>no budget applies</source>
        <translation>无适用预算</translation>
    </message>
    <message>
        <source>%1; %2 used</source>
        <translation>%1；已用 %2</translation>
    </message>
    <message>
        <source>+%1 GPU-h until %2</source>
        <translation>+%1 GPU 小时，至 %2</translation>
    </message>
    <message>
        <source>%1 at %2 (boost %3): %4</source>
        <translation>%1 于 %2（临时提额 %3）：%4</translation>
    </message>
    <message>
        <source>%1 at %2: %3</source>
        <translation>%1 于 %2：%3</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>申请</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Requester</source>
        <translation>申请人</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Asked for</source>
        <translation>申请额度</translation>
    </message>
    <message>
        <source>Usage now</source>
        <translation>当前用量</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>理由</translation>
    </message>
    <message>
        <source>Decision</source>
        <translation>审批结果</translation>
    </message>
</context>
<context>
    <name>gq::BoostDecisionDialog</name>
    <message>
        <source>Approve boost request %1</source>
        <translation>批准临时提额申请 %1</translation>
    </message>
    <message>
        <source>Deny boost request %1</source>
        <translation>拒绝临时提额申请 %1</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>Deny</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>%1 asks for +%2 GPU-h on %3 until %4: %5</source>
        <translation>%1 申请为%3增加 %2 GPU 小时，至 %4：%5</translation>
    </message>
    <message>
        <source>Request:</source>
        <translation>申请：</translation>
    </message>
    <message>
        <source> GPU-h</source>
        <translation> GPU 小时</translation>
    </message>
    <message>
        <source>Extra GPU-hours:</source>
        <translation>增加的 GPU 小时：</translation>
    </message>
    <message>
        <source>Until:</source>
        <translation>截止：</translation>
    </message>
    <message>
        <source>Your note for the boost (at least %1 characters)</source>
        <translation>您对此次临时提额的备注（至少 %1 个字符）</translation>
    </message>
    <message>
        <source>Why is it denied? (at least %1 characters)</source>
        <translation>拒绝的理由？（至少 %1 个字符）</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Reason:</source>
        <translation>理由：</translation>
    </message>
    <message>
        <source>Write a note of at least %1 characters saying why (%2 so far).</source>
        <translation>请写至少 %1 个字符的备注说明理由（目前 %2 个）。</translation>
    </message>
    <message>
        <source>The end must be in the future.</source>
        <translation>截止时间必须在将来。</translation>
    </message>
</context>
<context>
    <name>gq::BoostRequestsPanel</name>
    <message>
        <source>Approve…</source>
        <translation>批准…</translation>
    </message>
    <message>
        <source>Deny…</source>
        <translation>拒绝…</translation>
    </message>
    <message>
        <source>Boost requests: %1 pending</source>
        <translation>临时提额申请：%1 个待审批</translation>
    </message>
    <message>
        <source>Request %1 approved: boost %2 granted to %3.</source>
        <translation>申请 %1 已批准：已为%3授予临时提额 %2。</translation>
    </message>
    <message>
        <source>Request %1 denied.</source>
        <translation>申请 %1 已拒绝。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>Select a pending request first.</source>
        <translation>请先选择一个待审批的申请。</translation>
    </message>
    <message>
        <source>Request %1 is your own (%2): another admin must approve or deny it.</source>
        <translation>申请 %1 是您自己（%2）提交的：须由另一位管理员批准或拒绝。</translation>
    </message>
</context>
<context>
    <name>gq::BoostChangeDialog</name>
    <message>
        <source>Revoke boost %1</source>
        <translation>撤销临时提额 %1</translation>
    </message>
    <message>
        <source>Extend boost %1</source>
        <translation>延长临时提额 %1</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Extend</source>
        <translation>延长</translation>
    </message>
    <message>
        <source>%1, %2 until %3</source>
        <translation>%1，%2，至 %3</translation>
    </message>
    <message>
        <source>Boost:</source>
        <translation>临时提额：</translation>
    </message>
    <message>
        <source>New end:</source>
        <translation>新的结束时间：</translation>
    </message>
    <message>
        <source>Why is it taken back early? (at least %1 characters)</source>
        <translation>为什么提前收回？（至少 %1 个字符）</translation>
    </message>
    <message>
        <source>Why does it last longer? (at least %1 characters)</source>
        <translation>为什么要延长？（至少 %1 个字符）</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Write a note of at least %1 characters saying why (%2 so far).</source>
        <translation>请填写至少 %1 个字符的备注说明原因（目前 %2 个）。</translation>
    </message>
    <message>
        <source>The new end must be in the future and after the start.</source>
        <translation>新的结束时间必须在将来，且晚于开始时间。</translation>
    </message>
</context>
<context>
    <name>gq::BoostGrantDialog</name>
    <message>
        <source>Namespace quota</source>
        <translation>命名空间配额</translation>
    </message>
    <message>
        <source>GPU-hour budget</source>
        <translation>GPU 小时预算</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>增加</translation>
    </message>
    <message>
        <source>Set to</source>
        <translation>设为</translation>
    </message>
    <message>
        <source>Now</source>
        <translation>立即</translation>
    </message>
    <message>
        <source>At</source>
        <translation>于</translation>
    </message>
    <message>
        <source>After</source>
        <translation>持续</translation>
    </message>
    <message>
        <source>Repeat in a window</source>
        <translation>按时间窗口重复</translation>
    </message>
    <message>
        <source>Grant a boost</source>
        <translation>授予临时提额</translation>
    </message>
    <message>
        <source>Grant boost</source>
        <translation>授予提额</translation>
    </message>
    <message>
        <source>Namespace:</source>
        <translation>命名空间：</translation>
    </message>
    <message>
        <source>ResourceQuota:</source>
        <translation>ResourceQuota：</translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation>资源：</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>user or namespace name</source>
        <translation>用户名或命名空间名</translation>
    </message>
    <message>
        <source>Budget of:</source>
        <translation>预算归属：</translation>
    </message>
    <message>
        <source>e.g. +4</source>
        <translation>例如 +4</translation>
    </message>
    <message>
        <source>e.g. 16</source>
        <translation>例如 16</translation>
    </message>
    <message>
        <source> GPU-h</source>
        <translation> GPU 小时</translation>
    </message>
    <message>
        <source>4h, 2d, 1h30m</source>
        <translation>4h、2d、1h30m</translation>
    </message>
    <message>
        <source>Nightly</source>
        <translation>每晚</translation>
    </message>
    <message>
        <source>Weekends</source>
        <translation>周末</translation>
    </message>
    <message>
        <source>Weekdays</source>
        <translation>工作日</translation>
    </message>
    <message>
        <source>Every:</source>
        <translation>周期：</translation>
    </message>
    <message>
        <source>Window:</source>
        <translation>时间窗口：</translation>
    </message>
    <message>
        <source>zone</source>
        <translation>时区</translation>
    </message>
    <message>
        <source>Until:</source>
        <translation>截止：</translation>
    </message>
    <message>
        <source>Why? At least %1 characters; goes into the audit log, e.g. &quot;paper deadline on Friday&quot;</source>
        <translation>原因？至少 %1 个字符，将写入审计日志，例如“周五论文截稿”</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Boost:</source>
        <translation>临时提额：</translation>
    </message>
    <message>
        <source>Change:</source>
        <translation>变更：</translation>
    </message>
    <message>
        <source>Starts:</source>
        <translation>开始：</translation>
    </message>
    <message>
        <source>Ends:</source>
        <translation>结束：</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Zone: &quot;%1&quot; is not a time zone (e.g. Europe/Berlin)</source>
        <translation>时区：“%1”不是有效的时区（例如 Asia/Shanghai）</translation>
    </message>
    <message>
        <source>Ends after: &quot;%1&quot; is not a duration (e.g. 4h, 2d, 1h30m)</source>
        <translation>持续时间：“%1”不是有效的时长（例如 4h、2d、1h30m）</translation>
    </message>
    <message>
        <source>No quota entry selected</source>
        <translation>未选择配额项</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1:  %2 → %3 → %4</source>
        <translation>%1：  %2 → %3 → %4</translation>
    </message>
    <message>
        <source>First window %1 to %2, then every window until %3.</source>
        <translation>首个窗口 %1 至 %2，之后每个窗口重复，直到 %3。</translation>
    </message>
    <message>
        <source>%1 from %2 until %3, then back to %4.</source>
        <translation>从%2至 %3 为 %1，之后恢复为 %4。</translation>
    </message>
    <message>
        <source>now</source>
        <translation>现在</translation>
    </message>
    <message>
        <source>Only this boost&apos;s delta is taken back, so changes others make meanwhile stay.</source>
        <translation>到期时只收回本次提额的增量，其他人在此期间所做的修改会保留。</translation>
    </message>
    <message>
        <source>+%1 GPU-hours</source>
        <translation>+%1 GPU 小时</translation>
    </message>
    <message>
        <source>Counts towards the budget of %1 from %2 until %3.</source>
        <translation>从 %2 到 %3 计入 %1 的预算。</translation>
    </message>
    <message>
        <source>Write a note of at least %1 characters saying why (%2 so far).</source>
        <translation>请填写至少 %1 个字符的备注说明原因（目前 %2 个）。</translation>
    </message>
    <message>
        <source>Say whose budget: a user or namespace name.</source>
        <translation>请说明是谁的预算：用户名或命名空间名。</translation>
    </message>
    <message>
        <source>Kueue queue</source>
        <translation>Kueue 队列</translation>
    </message>
    <message>
        <source>No ClusterQueue flavor selected</source>
        <translation>未选择 ClusterQueue 规格</translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation>%1 %2 %3</translation>
    </message>
    <message>
        <source>Choose a ClusterQueue flavor.</source>
        <translation>请选择一个 ClusterQueue 规格。</translation>
    </message>
    <message>
        <source>%1 %2 %3:  %4 → %5 → %6</source>
        <translation>%1 %2 %3：  %4 → %5 → %6</translation>
    </message>
</context>
<context>
    <name>gq::BoostListModel</name>
    <message>
        <source>scheduled</source>
        <translation>已计划</translation>
    </message>
    <message>
        <source>applying</source>
        <translation>应用中</translation>
    </message>
    <message>
        <source>active</source>
        <translation>生效中</translation>
    </message>
    <message>
        <source>reverting</source>
        <translation>恢复中</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已到期</translation>
    </message>
    <message>
        <source>revoked</source>
        <translation>已撤销</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>%1 / %2: %3</source>
        <translation>%1 / %2：%3</translation>
    </message>
    <message>
        <source>ClusterQueue %1 / %2: %3 %4</source>
        <translation>ClusterQueue %1 / %2：%3 %4</translation>
    </message>
    <message>
        <source>GPU-hour budget of user %1</source>
        <translation>用户 %1 的 GPU 小时预算</translation>
    </message>
    <message>
        <source>GPU-hour budget of namespace %1</source>
        <translation>命名空间 %1 的 GPU 小时预算</translation>
    </message>
    <message>
        <source>%1 GPU-h</source>
        <translation>%1 GPU 小时</translation>
    </message>
    <message>
        <source>%1 (to %2)</source>
        <translation>%1（至 %2）</translation>
    </message>
    <message>
        <source>Repeats until %1</source>
        <translation>重复至 %1</translation>
    </message>
    <message>
        <source>nightly</source>
        <translation>每晚</translation>
    </message>
    <message>
        <source>weekends</source>
        <translation>周末</translation>
    </message>
    <message>
        <source>weekdays</source>
        <translation>工作日</translation>
    </message>
    <message>
        <source>%1, %2 %3 (%4)</source>
        <translation>%1，%2 %3（%4）</translation>
    </message>
    <message>
        <source>%1 (next retry %2)</source>
        <translation>%1（下次重试 %2）</translation>
    </message>
    <message>
        <source>ID</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>变更</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>From</source>
        <translation>从</translation>
    </message>
    <message>
        <source>Until</source>
        <translation>至</translation>
    </message>
    <message>
        <source>Who</source>
        <translation>操作者</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Failure</source>
        <translation>失败原因</translation>
    </message>
</context>
<context>
    <name>gq::BoostReconciler</name>
    <message>
        <source>ResourceQuota %1/%2 not found</source>
        <translation>未找到 ResourceQuota %1/%2</translation>
    </message>
    <message>
        <source>Kueue is not installed (no %1 API)</source>
        <translation>未安装 Kueue（没有 %1 API）</translation>
    </message>
    <message>
        <source>Kueue serves %1; this version reads %2</source>
        <translation>Kueue 提供 %1；本版本读取 %2</translation>
    </message>
    <message>
        <source>ClusterQueue %1 not found</source>
        <translation>未找到 ClusterQueue %1</translation>
    </message>
    <message>
        <source>the ClusterQueue kept changing on the server (409 Conflict)</source>
        <translation>ClusterQueue 在服务器上不断变化（409 冲突）</translation>
    </message>
    <message>
        <source>ResourceQuota %1/%2 no longer has %3</source>
        <translation>ResourceQuota %1/%2 已不再包含 %3</translation>
    </message>
    <message>
        <source>%1 would become negative (%2 %3)</source>
        <translation>%1 将变为负数（%2 %3）</translation>
    </message>
    <message>
        <source>the quota kept changing on the server (409 Conflict)</source>
        <translation>服务器上的配额不断被修改（409 冲突）</translation>
    </message>
    <message>
        <source>the write was cancelled</source>
        <translation>写入已取消</translation>
    </message>
    <message>
        <source>the annotation still shows the old end: %1</source>
        <translation>注解仍显示原来的结束时间：%1</translation>
    </message>
</context>
<context>
    <name>gq::BoostsPage</name>
    <message>
        <source>Grant boost…</source>
        <translation>授予提额…</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>撤销…</translation>
    </message>
    <message>
        <source>Extend…</source>
        <translation>延长…</translation>
    </message>
    <message>
        <source>All namespaces</source>
        <translation>所有命名空间</translation>
    </message>
    <message>
        <source>Every state</source>
        <translation>所有状态</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>生效中</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>已计划</translation>
    </message>
    <message>
        <source>Expired or revoked</source>
        <translation>已到期或已撤销</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Show the boosts of every namespace and user, not only the selected namespace&apos;s</source>
        <translation>显示所有命名空间和用户的临时提额，而不仅是所选命名空间的</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Boosts: %1</source>
        <translation>临时提额：%1</translation>
    </message>
    <message>
        <source>Boost %1 recorded; it starts at its scheduled time.</source>
        <translation>临时提额 %1 已记录，将在计划时间开始。</translation>
    </message>
    <message>
        <source>Boost %1 recorded; applying it to the cluster…</source>
        <translation>临时提额 %1 已记录，正在应用到集群…</translation>
    </message>
    <message>
        <source>Boost %1 revoked.</source>
        <translation>临时提额 %1 已撤销。</translation>
    </message>
    <message>
        <source>Boost %1 now ends %2.</source>
        <translation>临时提额 %1 现在于 %2 结束。</translation>
    </message>
    <message>
        <source>The cluster step failed; it is retried (see the Failure column).</source>
        <translation>集群操作失败，将自动重试（见“失败原因”列）。</translation>
    </message>
    <message>
        <source>Boost %1 is now %2.</source>
        <translation>临时提额 %1 现在为“%2”。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>No usage database is open. Boosts are recorded there before they touch the cluster; start the console with --usage-db URL or set one in Connections.</source>
        <translation>未打开用量数据库。临时提额在修改集群之前先记录在数据库中；请用 --usage-db URL 启动控制台，或在“连接”中设置。</translation>
    </message>
    <message>
        <source>Reading boosts…</source>
        <translation>正在读取临时提额…</translation>
    </message>
    <message>
        <source>No boost matches this filter. Tick &quot;All namespaces&quot; or show every state.</source>
        <translation>没有符合此筛选条件的临时提额。请勾选“所有命名空间”或显示所有状态。</translation>
    </message>
    <message>
        <source>No boosts yet. &quot;Grant boost…&quot; raises a quota or budget for a while, with a note saying why, and takes it back on time.</source>
        <translation>还没有临时提额。“授予提额…”可在一段时间内提高配额或预算，附上原因说明，并按时自动收回。</translation>
    </message>
</context>
<context>
    <name>gq::BudgetDialog</name>
    <message>
        <source>New GPU-hour budget</source>
        <translation>新建 GPU 小时预算</translation>
    </message>
    <message>
        <source>Edit GPU-hour budget</source>
        <translation>编辑 GPU 小时预算</translation>
    </message>
    <message>
        <source>Delete GPU-hour budget</source>
        <translation>删除 GPU 小时预算</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>user name or namespace</source>
        <translation>用户名或命名空间</translation>
    </message>
    <message>
        <source>Day</source>
        <translation>天</translation>
    </message>
    <message>
        <source>Week (ISO, from Monday)</source>
        <translation>周（ISO，自周一起）</translation>
    </message>
    <message>
        <source>Month</source>
        <translation>月</translation>
    </message>
    <message>
        <source> GPU-h</source>
        <translation> GPU 小时</translation>
    </message>
    <message>
        <source>e.g. 30m, 1h30m, 0</source>
        <translation>例如 30m、1h30m、0</translation>
    </message>
    <message>
        <source>Why? (required; goes into the audit log)</source>
        <translation>原因（必填，记入审计日志）</translation>
    </message>
    <message>
        <source>Scope:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <source>Subject:</source>
        <translation>对象：</translation>
    </message>
    <message>
        <source>Period:</source>
        <translation>周期：</translation>
    </message>
    <message>
        <source>Limit:</source>
        <translation>上限：</translation>
    </message>
    <message>
        <source>Grace:</source>
        <translation>宽限：</translation>
    </message>
    <message>
        <source>Time zone:</source>
        <translation>时区：</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Deleting the budget lifts its limit: the subject may use GPUs without a GPU-hour cap.</source>
        <translation>删除预算会解除其上限：该对象可以不受 GPU 小时上限地使用 GPU。</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <source>Grace: %1</source>
        <translation>宽限：%1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>gq::BudgetEnforcer</name>
    <message>
        <source>usage database: %1</source>
        <translation>用量数据库：%1</translation>
    </message>
    <message>
        <source>listing ResourceQuotas: %1</source>
        <translation>列出 ResourceQuota：%1</translation>
    </message>
    <message>
        <source>listing namespaces: %1</source>
        <translation>列出命名空间：%1</translation>
    </message>
    <message>
        <source>%1: usage database: %2</source>
        <translation>%1：用量数据库：%2</translation>
    </message>
    <message>
        <source>listing pods: %1</source>
        <translation>列出 Pod：%1</translation>
    </message>
    <message>
        <source>the write was cancelled</source>
        <translation>写入已取消</translation>
    </message>
    <message>
        <source>the budget allows GPU work again</source>
        <translation>预算重新允许 GPU 作业</translation>
    </message>
    <message>
        <source>%1/%2: audit: %3</source>
        <translation>%1/%2：审计：%3</translation>
    </message>
    <message>
        <source>the quotas kept changing on the server (409 Conflict)</source>
        <translation>服务器上的配额不断变化（409 Conflict）</translation>
    </message>
    <message>
        <source>newcomer allowances: %1</source>
        <translation>新人额度：%1</translation>
    </message>
</context>
<context>
    <name>gq::BudgetListModel</name>
    <message>
        <source>day</source>
        <translation>天</translation>
    </message>
    <message>
        <source>week</source>
        <translation>周</translation>
    </message>
    <message>
        <source>month</source>
        <translation>月</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this week</source>
        <translation>本周超出 %1 GPU 小时（上限 %2）</translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this week</source>
        <translation>本周剩余 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 this month</source>
        <translation>本月超出 %1 GPU 小时（上限 %2）</translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 this month</source>
        <translation>本月剩余 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h over %2 today</source>
        <translation>今日超出 %1 GPU 小时（上限 %2）</translation>
    </message>
    <message>
        <source>%1 GPU-h left of %2 today</source>
        <translation>今日剩余 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>less than a minute</source>
        <translation>不到 1 分钟</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 天 %2 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>in grace until the period ends (%1)</source>
        <translation>宽限持续到本周期结束（%1）</translation>
    </message>
    <message>
        <source>not at this rate</source>
        <translation>按当前速率不会用完</translation>
    </message>
    <message>
        <source>at this rate: spent by %1 (in %2)</source>
        <translation>按当前速率：%1 用完（%2后）</translation>
    </message>
    <message>
        <source>at this rate: grace ends %1 (in %2)</source>
        <translation>按当前速率：宽限于 %1 结束（%2后）</translation>
    </message>
    <message>
        <source>spent for this week</source>
        <translation>本周已用完</translation>
    </message>
    <message>
        <source>spent for this month</source>
        <translation>本月已用完</translation>
    </message>
    <message>
        <source>spent for today</source>
        <translation>今日已用完</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 GPU-h / %2</source>
        <translation>%1 GPU 小时 / %2</translation>
    </message>
    <message>
        <source> (+%1 boost)</source>
        <translation>（+%1 临时提升）</translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h used this %3 (from %4); %5 GPUs held now</source>
        <translation>当前周期（%3）已用 %1 / %2 GPU 小时（自 %4 起）；当前占用 %5 个 GPU</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>grace %1 · %2</source>
        <translation>宽限 %1 · %2</translation>
    </message>
    <message>
        <source>no grace · %1</source>
        <translation>无宽限 · %1</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Remaining</source>
        <translation>剩余</translation>
    </message>
    <message>
        <source>none yet this period</source>
        <translation>本周期尚无</translation>
    </message>
    <message>
        <source>%1 (delivery failing, retried)</source>
        <translation>%1（发送失败，将重试）</translation>
    </message>
    <message>
        <source>%1 sent</source>
        <translation>已发送 %1</translation>
    </message>
    <message>
        <source>no alert sent yet</source>
        <translation>尚未发送告警</translation>
    </message>
    <message>
        <source>last: %1% at %2 to %3</source>
        <translation>最近：%1%，%2 发给 %3</translation>
    </message>
    <message>
        <source>last: %1% at %2 by webhook</source>
        <translation>最近：%1%，%2 通过 Webhook</translation>
    </message>
    <message>
        <source>Alerts are sent by gpuquota-controller when this budget&apos;s use crosses a threshold, once per threshold and period.</source>
        <translation>当此预算的用量越过阈值时，gpuquota-controller 会发送告警，每个阈值每个周期一次。</translation>
    </message>
    <message>
        <source>Alerts</source>
        <translation>告警</translation>
    </message>
    <message>
        <source>no limit / %1</source>
        <translation>不限 / %1</translation>
    </message>
    <message>
        <source>newcomer allowance until %1</source>
        <translation>新人额度至 %1</translation>
    </message>
    <message>
        <source>%1 GPU-h + %2 without limit</source>
        <translation>%1 GPU 小时 + %2 个无上限预算</translation>
    </message>
    <message>
        <source>%1 GPU-h</source>
        <translation>%1 GPU 小时</translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h used</source>
        <translation>已用 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 · budgets: %2</source>
        <translation>%1 · 预算数：%2</translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>subtotal of the budgets below</source>
        <translation>下列预算的小计</translation>
    </message>
    <message>
        <source>%1 GPU-h over</source>
        <translation>超出 %1 GPU 小时</translation>
    </message>
    <message>
        <source>%1 GPU-h left</source>
        <translation>剩余 %1 GPU 小时</translation>
    </message>
    <message>
        <source>The sum of the budgets under this queue, each in its own period. A namespace budget is under its namespace&apos;s queue, a user budget under the queues of the namespaces the user ran in this period (several jointly).</source>
        <translation>此队列下各预算之和，每个预算按其自身周期计算。命名空间预算归入其命名空间的队列；用户预算归入该用户本周期运行过的命名空间所属的队列（多个队列时合并计入）。</translation>
    </message>
</context>
<context>
    <name>gq::BudgetService</name>
    <message>
        <source>The usage database is not open.</source>
        <translation>用量数据库未打开。</translation>
    </message>
</context>
<context>
    <name>gq::BudgetUse</name>
    <message>
        <source>%1 of %2 GPU-h today</source>
        <translation>今日已用 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h this week</source>
        <translation>本周已用 %1 / %2 GPU 小时</translation>
    </message>
    <message>
        <source>%1 of %2 GPU-h this month</source>
        <translation>本月已用 %1 / %2 GPU 小时</translation>
    </message>
</context>
<context>
    <name>gq::BudgetsPage</name>
    <message>
        <source>New budget…</source>
        <translation>新建预算…</translation>
    </message>
    <message>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <source>Budgets: %1</source>
        <translation>预算：%1</translation>
    </message>
    <message>
        <source>Budget change recorded (audit entry %1)</source>
        <translation>预算变更已记录（审计记录 %1）</translation>
    </message>
    <message>
        <source>Reading budgets…</source>
        <translation>正在读取预算…</translation>
    </message>
    <message>
        <source>No GPU-hour budgets yet. Create one with &quot;New budget…&quot;.</source>
        <translation>尚无 GPU 小时预算。请用“新建预算…”创建一个。</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The controller&apos;s page where a user sees their own quota and budgets</source>
        <translation>控制器提供的页面，用户可在此查看自己的配额和预算</translation>
    </message>
    <message>
        <source>Self-service page for %1</source>
        <translation>%1 的自助服务页面</translation>
    </message>
    <message>
        <source>No usage database is open yet: budgets are kept there (set it for this context under Connections).</source>
        <translation>尚未打开用量数据库：预算保存在其中（请在“连接”中为此上下文设置）。</translation>
    </message>
    <message>
        <source>None</source>
        <translation>不分组</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
    <message>
        <source>&amp;Group by</source>
        <translation>分组方式(&amp;G)</translation>
    </message>
    <message>
        <source>Budgets under the Kueue queue they are charged to, with subtotals: a namespace budget under its namespace&apos;s LocalQueue and that queue&apos;s ClusterQueue, a user budget under the queues of the namespaces the user ran in this period (several jointly; none: &quot;(no queue)&quot;)</source>
        <translation>按预算计入的 Kueue 队列分组并显示小计：命名空间预算归入其命名空间的 LocalQueue 及该队列的 ClusterQueue；用户预算归入该用户本周期运行过的命名空间所属的队列（多个时合并计入；没有时为“(no queue)”）</translation>
    </message>
</context>
<context>
    <name>gq::CanRunPanel</name>
    <message>
        <source>Plan a fine-tune…</source>
        <translation>规划微调…</translation>
    </message>
    <message>
        <source>Can this run?</source>
        <translation>能否运行？</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>检查</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>namespace (optional)</source>
        <translation>命名空间（可选）</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <source>Namespace:</source>
        <translation>命名空间：</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU 数：</translation>
    </message>
    <message>
        <source>Expected hours:</source>
        <translation>预计时长：</translation>
    </message>
    <message>
        <source>Enter a user or a namespace.</source>
        <translation>请输入用户或命名空间。</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>user %1</source>
        <translation>用户 %1</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>命名空间 %1</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>允许</translation>
    </message>
    <message>
        <source>%1, per %2: %3 used + %4 needed of %5 GPU-h (%6 left): %7</source>
        <translation>%1，每%2：已用 %3 + 需要 %4，上限 %5 GPU 小时（剩余 %6）：%7</translation>
    </message>
    <message>
        <source>No GPU-hour budget applies to this user or namespace.</source>
        <translation>此用户或命名空间没有适用的 GPU 小时预算。</translation>
    </message>
    <message>
        <source>Yes: no GPU-hour budget applies (%1 GPU-h).</source>
        <translation>可以：没有适用的 GPU 小时预算（%1 GPU 小时）。</translation>
    </message>
    <message>
        <source>Yes: %1 GPU-h fit in the %2 GPU-h left.</source>
        <translation>可以：%1 GPU 小时在剩余的 %2 GPU 小时之内。</translation>
    </message>
    <message>
        <source>No: it needs %1 GPU-h, only %2 are left (limit %3 per %4 of %5).</source>
        <translation>不可以：需要 %1 GPU 小时，仅剩 %2（%5 的上限为每%4 %3）。</translation>
    </message>
</context>
<context>
    <name>gq::ChargebackModel</name>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>%1: %2 GPU-h at %3</source>
        <translation>%1：%2 GPU 小时，单价 %3</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>GPU-hours held</source>
        <translation>占用 GPU 小时</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>实际使用</translation>
    </message>
    <message>
        <source>Idle share</source>
        <translation>空闲占比</translation>
    </message>
    <message>
        <source>%1 (%2 GPU-h)</source>
        <translation>%1（%2 GPU 小时）</translation>
    </message>
    <message>
        <source>No idle spans were recorded for these GPUs in this month: the controller records them when it is given a metrics source. What was held is charged either way.</source>
        <translation>本月没有为这些 GPU 记录空闲时段：控制器在配置了指标数据源后才会记录。无论是否记录，占用的 GPU 小时都照常计费。</translation>
    </message>
    <message>
        <source>Used = held - idle. Idle: GPU-hours the controller found under the idle threshold in this month (idle spans).</source>
        <translation>实际使用 = 占用 - 空闲。空闲：本月控制器发现低于空闲阈值的 GPU 小时（空闲时段）。</translation>
    </message>
    <message>
        <source>Effective rate: the cost divided by the GPU-hours, charged as:
%1</source>
        <translation>有效单价：费用除以 GPU 小时，计费明细：
%1</translation>
    </message>
    <message>
        <source>Cost (%1)</source>
        <translation>费用（%1）</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
</context>
<context>
    <name>gq::ChargebackPage</name>
    <message>
        <source>Rates file…</source>
        <translation>单价文件…</translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <source>Export PDF…</source>
        <translation>导出 PDF…</translation>
    </message>
    <message>
        <source>The calendar month to charge, in the zone beside it</source>
        <translation>要计费的自然月（按右侧的时区）</translation>
    </message>
    <message>
        <source>Time zone of the month&apos;s first and last day (IANA name)</source>
        <translation>确定月份首日和末日的时区（IANA 名称）</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source> per GPU-hour</source>
        <translation> / GPU 小时</translation>
    </message>
    <message>
        <source>One rate for every resource; a rates file replaces it</source>
        <translation>所有资源使用同一单价；指定单价文件时以文件为准</translation>
    </message>
    <message>
        <source>none: one rate for all</source>
        <translation>无：所有资源同一单价</translation>
    </message>
    <message>
        <source>A YAML rates file (default, resources, currency), as for gpuquota report chargeback --rates</source>
        <translation>YAML 单价文件（default、resources、currency），与 gpuquota report chargeback --rates 相同</translation>
    </message>
    <message>
        <source>&amp;Month</source>
        <translation>月份(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;Zone</source>
        <translation>时区(&amp;Z)</translation>
    </message>
    <message>
        <source>&amp;Per</source>
        <translation>按(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Rate</source>
        <translation>单价(&amp;R)</translation>
    </message>
    <message>
        <source>Rates &amp;file</source>
        <translation>单价文件(&amp;F)</translation>
    </message>
    <message>
        <source>No usage database is open.</source>
        <translation>未打开用量数据库。</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>正在加载…</translation>
    </message>
    <message>
        <source>%1 per GPU-hour</source>
        <translation>%1 / GPU 小时</translation>
    </message>
    <message>
        <source>default %1</source>
        <translation>默认 %1</translation>
    </message>
    <message>
        <source>Total: %1 GPU-h, %2</source>
        <translation>合计：%1 GPU 小时，%2</translation>
    </message>
    <message>
        <source>No GPU-hours were recorded in %1.</source>
        <translation>%1 没有记录任何 GPU 小时。</translation>
    </message>
    <message numerus="yes">
        <source>%n subject(s).</source>
        <translation>
            <numerusform>共 %n 项。</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot make the report: %1</source>
        <translation>无法生成报表：%1</translation>
    </message>
    <message>
        <source>Rates file</source>
        <translation>单价文件</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml);;All files (*)</source>
        <translation>YAML 文件 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Export the chargeback as PDF</source>
        <translation>将费用分摊导出为 PDF</translation>
    </message>
    <message>
        <source>Export the chargeback as CSV</source>
        <translation>将费用分摊导出为 CSV</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message numerus="yes">
        <source>Saved %1 (%n page(s))</source>
        <translation>
            <numerusform>已保存 %1（%n 页）</numerusform>
        </translation>
    </message>
    <message>
        <source> %1 per GPU-hour</source>
        <translation> %1 / GPU 小时</translation>
    </message>
    <message>
        <source>Used = held - idle, from the idle spans the controller recorded; &quot;not recorded&quot; where a subject has none.</source>
        <translation>实际使用 = 占用 - 空闲，依据控制器记录的空闲时段；没有空闲时段记录的对象显示“未记录”。</translation>
    </message>
    <message>
        <source>Used and idle share: not recorded, no idle spans were recorded in this month (the controller records them when it has a metrics source).</source>
        <translation>实际使用和空闲占比：未记录，本月没有记录空闲时段（控制器在有指标数据源时才会记录）。</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: %2 to %3 (%4) · Rate: %5&lt;br&gt;Charged: GPU-hours held (allocated). %6</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：%2 至 %3（%4）· 单价：%5&lt;br&gt;计费依据：占用（已分配）的 GPU 小时。%6</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
    <message>
        <source>Kueue queues: each namespace&apos;s GPU-hours go to its LocalQueue and that queue&apos;s ClusterQueue</source>
        <translation>Kueue 队列：每个命名空间的 GPU 小时计入其 LocalQueue 及该队列的 ClusterQueue</translation>
    </message>
</context>
<context>
    <name>gq::ChargebackPdf</name>
    <message>
        <source>%1 per GPU-hour</source>
        <translation>%1 / GPU 小时</translation>
    </message>
    <message>
        <source>default %1</source>
        <translation>默认 %1</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>单价</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>费用</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>实际使用</translation>
    </message>
    <message>
        <source>Idle share</source>
        <translation>空闲占比</translation>
    </message>
    <message>
        <source>GPU chargeback %1</source>
        <translation>GPU 费用分摊 %1</translation>
    </message>
    <message>
        <source>Period: %1 to %2 (%3)</source>
        <translation>期间：%1 至 %2（%3）</translation>
    </message>
    <message>
        <source>Charged per %1</source>
        <translation>分摊对象：%1</translation>
    </message>
    <message>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Rate: %1</source>
        <translation>单价：%1</translation>
    </message>
    <message>
        <source>Charged: GPU-hours held (allocated), whether or not the GPUs were busy.</source>
        <translation>计费依据：占用（已分配）的 GPU 小时，无论 GPU 是否繁忙。</translation>
    </message>
    <message>
        <source>Generated: %1</source>
        <translation>生成时间：%1</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>No GPU-hours were recorded in this month.</source>
        <translation>本月没有记录任何 GPU 小时。</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>第 %1 页，共 %2 页</translation>
    </message>
    <message>
        <source>Cost (%1)</source>
        <translation>费用（%1）</translation>
    </message>
    <message>
        <source>Used = held - idle, from the idle spans the controller recorded; not recorded where a subject has none.</source>
        <translation>实际使用 = 占用 - 空闲，依据控制器记录的空闲时段；没有空闲时段记录的对象为“未记录”。</translation>
    </message>
    <message>
        <source>Used and idle share: not recorded (no idle spans in the usage database for this month).</source>
        <translation>实际使用和空闲占比：未记录（用量数据库中没有本月的空闲时段）。</translation>
    </message>
    <message>
        <source>* effective rate (cost / GPU-hours) of a subject charged several rates</source>
        <translation>* 按多种单价计费的对象的有效单价（费用 / GPU 小时）</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
    <message>
        <source>Kueue ClusterQueue (each namespace&apos;s usage to its LocalQueue&apos;s ClusterQueue)</source>
        <translation>Kueue ClusterQueue（每个命名空间的用量计入其 LocalQueue 的 ClusterQueue）</translation>
    </message>
    <message>
        <source>Kueue LocalQueue (each namespace&apos;s usage to its LocalQueue)</source>
        <translation>Kueue LocalQueue（每个命名空间的用量计入其 LocalQueue）</translation>
    </message>
</context>
<context>
    <name>gq::ClusterDiscovery</name>
    <message>
        <source>ConfigMap %1/%2 found: %3 settings advertised.</source>
        <translation>已找到 ConfigMap %1/%2：公布了 %3 项设置。</translation>
    </message>
    <message>
        <source>Ignored keys that look like secrets (%1): secrets belong in the keychain, enter them here.</source>
        <translation>已忽略看似机密的键（%1）：机密应保存在密钥环中，请在此处输入。</translation>
    </message>
    <message>
        <source>No ConfigMap %1/%2 (the controller is not installed, or older).</source>
        <translation>没有 ConfigMap %1/%2（控制器未安装，或版本较旧）。</translation>
    </message>
    <message>
        <source>Not allowed to read ConfigMap %1/%2.</source>
        <translation>无权读取 ConfigMap %1/%2。</translation>
    </message>
    <message>
        <source>Service %1/%2 found: controller at %3.</source>
        <translation>已找到 Service %1/%2：控制器位于 %3。</translation>
    </message>
    <message>
        <source>Not allowed to list pods in all namespaces: dcgm-exporter not looked for.</source>
        <translation>无权列出所有命名空间中的 Pod：未查找 dcgm-exporter。</translation>
    </message>
    <message>
        <source>%1 dcgm-exporter pods found (%2 services).</source>
        <translation>已找到 %1 个 dcgm-exporter Pod（%2 个 Service）。</translation>
    </message>
    <message>
        <source>No dcgm-exporter pods found (labels %1).</source>
        <translation>未找到 dcgm-exporter Pod（标签 %1）。</translation>
    </message>
</context>
<context>
    <name>gq::ClusterUsagePage</name>
    <message>
        <source>GPU-hours by namespace</source>
        <translation>按命名空间的 GPU 小时</translation>
    </message>
    <message>
        <source>GPUs allocated (average per bucket) vs GPU quota</source>
        <translation>已分配 GPU（每个时段平均）与 GPU 配额</translation>
    </message>
    <message>
        <source>Top users</source>
        <translation>用量最多的用户</translation>
    </message>
    <message>
        <source>Namespaces</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Double-click a user for their usage across namespaces</source>
        <translation>双击用户，查看其在各命名空间的用量</translation>
    </message>
    <message>
        <source>Double-click a namespace for its usage by user</source>
        <translation>双击命名空间，查看其按用户的用量</translation>
    </message>
    <message>
        <source>GPUs allocated</source>
        <translation>已分配 GPU</translation>
    </message>
    <message>
        <source>GPU quota (all namespaces)</source>
        <translation>GPU 配额（全部命名空间）</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source> of %1 in quotas</source>
        <translation>，配额共 %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1 GPU-h&lt;/b&gt; in the range &amp;middot; %2 namespaces &amp;middot; %3 users &amp;middot; GPUs allocated now: &lt;b&gt;%4&lt;/b&gt;%5</source>
        <translation>范围内共 &lt;b&gt;%1 GPU 小时&lt;/b&gt; &amp;middot; %2 个命名空间 &amp;middot; %3 个用户 &amp;middot; 当前已分配 GPU：&lt;b&gt;%4&lt;/b&gt;%5</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>LocalQueue</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
    <message>
        <source>Kueue queues: each namespace&apos;s GPU-hours go to its LocalQueue and that queue&apos;s ClusterQueue (a namespace with several LocalQueues to all of them jointly; one without any to &quot;(no queue)&quot;)</source>
        <translation>Kueue 队列：每个命名空间的 GPU 小时计入其 LocalQueue 及该队列的 ClusterQueue（有多个 LocalQueue 的命名空间计入它们的合计；没有 LocalQueue 的计入“(no queue)”）</translation>
    </message>
    <message>
        <source>&amp;Group by</source>
        <translation>分组方式(&amp;G)</translation>
    </message>
    <message>
        <source>GPU-hours by Kueue ClusterQueue</source>
        <translation>按 Kueue ClusterQueue 的 GPU 小时</translation>
    </message>
    <message>
        <source>GPU-hours by Kueue LocalQueue</source>
        <translation>按 Kueue LocalQueue 的 GPU 小时</translation>
    </message>
    <message>
        <source>ClusterQueues</source>
        <translation>ClusterQueue（集群队列）</translation>
    </message>
    <message>
        <source>LocalQueues</source>
        <translation>LocalQueue（本地队列）</translation>
    </message>
    <message>
        <source>GPU-hours of each queue&apos;s namespaces; group by Namespace to open one</source>
        <translation>各队列所属命名空间的 GPU 小时；按命名空间分组后可打开单个命名空间</translation>
    </message>
</context>
<context>
    <name>gq::ConflictDialog</name>
    <message>
        <source>The object changed on the server</source>
        <translation>服务器上的对象已变更</translation>
    </message>
    <message>
        <source>Someone changed this object after you started editing. Nothing has been applied. Compare the three versions and choose how to continue.</source>
        <translation>在你开始编辑后，有人修改了该对象。尚未应用任何变更。请比较三个版本并选择如何继续。</translation>
    </message>
    <message>
        <source>your changes</source>
        <translation>你的修改</translation>
    </message>
    <message>
        <source>the server&apos;s changes</source>
        <translation>服务器上的修改</translation>
    </message>
    <message>
        <source>both changed the same lines</source>
        <translation>双方修改了相同的行</translation>
    </message>
    <message>
        <source>What you started from</source>
        <translation>你开始编辑时的版本</translation>
    </message>
    <message>
        <source>Yours</source>
        <translation>你的版本</translation>
    </message>
    <message>
        <source>The server&apos;s now</source>
        <translation>服务器当前版本</translation>
    </message>
    <message>
        <source>Three-way</source>
        <translation>三方对比</translation>
    </message>
    <message>
        <source>Yours vs the server&apos;s</source>
        <translation>你的版本与服务器版本</translation>
    </message>
    <message>
        <source>Resolve in the Editor</source>
        <translation>在编辑器中解决</translation>
    </message>
    <message>
        <source>Open the merged text with conflict markers in the editor. Apply stays disabled until every marker is resolved.</source>
        <translation>在编辑器中打开带冲突标记的合并文本。在所有标记解决之前，“应用”保持禁用。</translation>
    </message>
    <message>
        <source>Yes, Overwrite the Server&apos;s Changes</source>
        <translation>是，覆盖服务器上的修改</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Discard Mine</source>
        <translation>放弃我的修改</translation>
    </message>
    <message>
        <source>Throw away your edit and continue with the server&apos;s version.</source>
        <translation>丢弃你的编辑，继续使用服务器版本。</translation>
    </message>
    <message>
        <source>Overwrite…</source>
        <translation>覆盖……</translation>
    </message>
    <message>
        <source>Apply your version over the server&apos;s (asks for confirmation).</source>
        <translation>用你的版本覆盖服务器版本（需要确认）。</translation>
    </message>
    <message>
        <source>Rebase My Change onto the Server&apos;s</source>
        <translation>将我的修改变基到服务器版本上</translation>
    </message>
    <message>
        <source>Apply the changes you made on top of the server&apos;s current version.</source>
        <translation>在服务器当前版本之上应用你所做的修改。</translation>
    </message>
    <message>
        <source>Keep Editing</source>
        <translation>继续编辑</translation>
    </message>
    <message>
        <source>Close this view without changing anything; your text stays in the editor.</source>
        <translation>关闭此视图而不做任何更改；你的文本保留在编辑器中。</translation>
    </message>
    <message>
        <source>The object changed on the server while you were editing it</source>
        <translation>你编辑期间，服务器上的对象已变更</translation>
    </message>
    <message>
        <source>%1 changed on the server while you were editing it</source>
        <translation>你编辑期间，服务器上的 %1 已变更</translation>
    </message>
    <message>
        <source>Nothing has been applied. Compare the three versions and choose how to continue.</source>
        <translation>尚未应用任何变更。请比较三个版本并选择如何继续。</translation>
    </message>
    <message>
        <source>yours</source>
        <translation>你的</translation>
    </message>
    <message>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Rebase My Change onto the Server&apos;s…</source>
        <translation>将我的修改变基到服务器版本上……</translation>
    </message>
    <message>
        <source>Rebasing found 1 conflict: you and the server changed the same lines.</source>
        <translation>变基发现 1 处冲突：你和服务器修改了相同的行。</translation>
    </message>
    <message>
        <source>Rebasing found %1 conflicts: you and the server changed the same lines.</source>
        <translation>变基发现 %1 处冲突：你和服务器修改了相同的行。</translation>
    </message>
    <message>
        <source>Line</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Started from</source>
        <translation>起始版本</translation>
    </message>
    <message>
        <source>(nothing)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>Resolve them in the editor (keep one side of each, delete the markers), or choose Overwrite or Discard Mine.</source>
        <translation>请在编辑器中解决（每处保留一方并删除标记），或选择“覆盖”或“放弃我的修改”。</translation>
    </message>
    <message>
        <source>The server&apos;s change since you started editing (1 line) will be lost.</source>
        <translation>自你开始编辑以来服务器上的修改（1 行）将会丢失。</translation>
    </message>
    <message>
        <source>The server&apos;s changes since you started editing (%1 lines) will be lost.</source>
        <translation>自你开始编辑以来服务器上的修改（%1 行）将会丢失。</translation>
    </message>
    <message>
        <source>Overwrite replaces the server&apos;s version with yours.</source>
        <translation>覆盖会用你的版本替换服务器版本。</translation>
    </message>
    <message>
        <source>Are you sure?</source>
        <translation>确定吗？</translation>
    </message>
</context>
<context>
    <name>gq::ConnectionBanner</name>
    <message>
        <source>Cannot read the kubeconfig: %1</source>
        <translation>无法读取 kubeconfig：%1</translation>
    </message>
    <message>
        <source>Connection to the cluster restored; the list is current again.</source>
        <translation>与集群的连接已恢复；列表已是最新。</translation>
    </message>
    <message>
        <source>no answer</source>
        <translation>无响应</translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted by the CA in your kubeconfig (%1).</source>
        <translation>服务器证书不受 kubeconfig 中的 CA 信任（%1）。</translation>
    </message>
    <message>
        <source>Fix the certificate authority there: the kubeconfig is re-read automatically when it changes.</source>
        <translation>请在 kubeconfig 中修正证书颁发机构：文件变更后会自动重新读取。</translation>
    </message>
    <message>
        <source>The cluster rejected the credentials of this context (%1).</source>
        <translation>集群拒绝了此上下文的凭据（%1）。</translation>
    </message>
    <message>
        <source>The kubeconfig is re-read automatically when it changes.</source>
        <translation>kubeconfig 变更后会自动重新读取。</translation>
    </message>
    <message>
        <source>Forbidden: %1</source>
        <translation>禁止访问：%1</translation>
    </message>
    <message>
        <source>The cluster answered with an error (%1).</source>
        <translation>集群返回了错误（%1）。</translation>
    </message>
    <message>
        <source>Lost the connection to the cluster (%1).</source>
        <translation>与集群的连接已断开（%1）。</translation>
    </message>
    <message numerus="yes">
        <source>Reconnecting to %1 — next attempt in %n s.</source>
        <translation>
            <numerusform>正在重新连接 %1 — %n 秒后再次尝试。</numerusform>
        </translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>The list may be out of date until then, and your edits are kept.</source>
        <translation>在此之前列表可能不是最新的，你的编辑会被保留。</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>立即重试</translation>
    </message>
    <message>
        <source>Not authorized: the credentials of this context were rejected (%1)</source>
        <translation>未授权：此上下文的凭据被拒绝（%1）</translation>
    </message>
    <message>
        <source>The cluster answered with an error: %1. Retrying automatically.</source>
        <translation>集群返回错误：%1。正在自动重试。</translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; is no longer in the kubeconfig. The console keeps its current connection; choose another context to switch.</source>
        <translation>上下文“%1”已不在 kubeconfig 中。控制台保持当前连接；请选择其他上下文进行切换。</translation>
    </message>
    <message>
        <source>The kubeconfig changed but cannot be used (%1). The console keeps its current connection and reads the file again when it changes.</source>
        <translation>kubeconfig 已变更但无法使用（%1）。控制台保持当前连接，并会在文件再次变更时重新读取。</translation>
    </message>
    <message>
        <source>Not secure: TLS certificate verification is off for the context &quot;%1&quot; (insecure-skip-tls-verify in the kubeconfig). Nothing proves that %2 is really your cluster, and anyone on the network path can read and change what is sent, credentials included.</source>
        <translation>不安全：上下文“%1”已关闭 TLS 证书验证（kubeconfig 中设置了 insecure-skip-tls-verify）。无法证明 %2 确实是您的集群，网络路径上的任何人都可以读取和篡改发送的内容，包括凭据。</translation>
    </message>
    <message>
        <source>Fix the file (it is read again when it changes), or open another one with File &gt; Open kubeconfig.</source>
        <translation>请修复该文件（文件更改后会自动重新读取），或通过“文件 &gt; 打开 kubeconfig”打开另一个文件。</translation>
    </message>
</context>
<context>
    <name>gq::ConnectionTests</name>
    <message>
        <source>TLS: the certificate of %1 is not trusted (%2); set the CA file</source>
        <translation>TLS：%1 的证书不受信任（%2）；请设置 CA 文件</translation>
    </message>
    <message>
        <source>no answer from %1 within 10 s</source>
        <translation>%1 在 10 秒内没有应答</translation>
    </message>
    <message>
        <source>nothing listens there (connection refused)</source>
        <translation>那里没有服务在监听（连接被拒绝）</translation>
    </message>
    <message>
        <source>the host name is not known</source>
        <translation>主机名未知</translation>
    </message>
    <message>
        <source>cannot reach %1: %2</source>
        <translation>无法连接 %1：%2</translation>
    </message>
    <message>
        <source>401: token rejected</source>
        <translation>401：令牌被拒绝</translation>
    </message>
    <message>
        <source>403: the token may not read this</source>
        <translation>403：该令牌无权读取此内容</translation>
    </message>
    <message>
        <source>404: nothing at %1 (check the URL and its path)</source>
        <translation>404：%1 处没有内容（请检查 URL 及其路径）</translation>
    </message>
    <message>
        <source>HTTP %1 from %2</source>
        <translation>%2 返回 HTTP %1</translation>
    </message>
    <message>
        <source>no URL given</source>
        <translation>未提供 URL</translation>
    </message>
    <message>
        <source>not an http:// or https:// URL: %1</source>
        <translation>不是 http:// 或 https:// URL：%1</translation>
    </message>
    <message>
        <source>just now</source>
        <translation>刚刚</translation>
    </message>
    <message>
        <source>%1 min ago</source>
        <translation>%1 分钟前</translation>
    </message>
    <message>
        <source>%1 h ago</source>
        <translation>%1 小时前</translation>
    </message>
    <message>
        <source>%1 days ago</source>
        <translation>%1 天前</translation>
    </message>
    <message>
        <source>no database URL given</source>
        <translation>未提供数据库 URL</translation>
    </message>
    <message>
        <source>no database file at %1 yet (the console creates it when it opens this context)</source>
        <translation>%1 处尚无数据库文件（控制台打开此上下文时会创建它）</translation>
    </message>
    <message>
        <source>password rejected: %1</source>
        <translation>密码被拒绝：%1</translation>
    </message>
    <message>
        <source>no intervals yet</source>
        <translation>尚无区间</translation>
    </message>
    <message>
        <source>newest %1</source>
        <translation>最新一条在 %1</translation>
    </message>
    <message>
        <source>connected, schema v%1, %2 intervals, %3</source>
        <translation>已连接，架构 v%1，%2 个区间，%3</translation>
    </message>
    <message>
        <source>none recorded yet</source>
        <translation>尚未记录任何区间</translation>
    </message>
    <message>
        <source>%1 answered, but not like Prometheus (no version in /api/v1/status/buildinfo)</source>
        <translation>%1 有应答，但不像 Prometheus（/api/v1/status/buildinfo 中没有版本）</translation>
    </message>
    <message>
        <source>Prometheus %1 reachable, but the GPU query failed: %2</source>
        <translation>Prometheus %1 可访问，但 GPU 查询失败：%2</translation>
    </message>
    <message>
        <source>Prometheus %1 reachable, but no GPU reports DCGM_FI_DEV_GPU_UTIL (is dcgm-exporter scraped?)</source>
        <translation>Prometheus %1 可访问，但没有 GPU 报告 DCGM_FI_DEV_GPU_UTIL（dcgm-exporter 是否被抓取？）</translation>
    </message>
    <message>
        <source>no exporter endpoints given</source>
        <translation>未提供导出器端点</translation>
    </message>
    <message>
        <source>controller reachable</source>
        <translation>控制器可访问</translation>
    </message>
    <message>
        <source>controller reachable: %1</source>
        <translation>控制器可访问：%1</translation>
    </message>
    <message>
        <source>%1 GPUs and %2 MIG instances</source>
        <translation>%1 个 GPU 和 %2 个 MIG 实例</translation>
    </message>
    <message>
        <source>%1 GPUs</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <source>Prometheus %1 reachable, %2 reporting</source>
        <translation>Prometheus %1 可访问，%2 在报告</translation>
    </message>
    <message>
        <source>%1 of %2 endpoints answer, %3 reporting</source>
        <translation>%2 个端点中有 %1 个应答，%3 在报告</translation>
    </message>
    <message>
        <source>controller ready</source>
        <translation>控制器就绪</translation>
    </message>
    <message>
        <source>controller not ready: %1</source>
        <translation>控制器未就绪：%1</translation>
    </message>
    <message>
        <source>controller unreachable: %1</source>
        <translation>控制器不可访问：%1</translation>
    </message>
</context>
<context>
    <name>gq::ConnectionsTab</name>
    <message>
        <source>Test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Use an embedded SQLite database</source>
        <translation>使用嵌入式 SQLite 数据库</translation>
    </message>
    <message>
        <source>Discover from the cluster...</source>
        <translation>从集群发现...</translation>
    </message>
    <message>
        <source>sqlite:///path/usage.db or postgresql://user@host:5432/gpuquota</source>
        <translation>sqlite:///路径/usage.db 或 postgresql://用户@主机:5432/gpuquota</translation>
    </message>
    <message>
        <source>PostgreSQL only; kept in the keychain</source>
        <translation>仅 PostgreSQL；保存在密钥环中</translation>
    </message>
    <message>
        <source>Not configured</source>
        <translation>未配置</translation>
    </message>
    <message>
        <source>Prometheus</source>
        <translation>Prometheus</translation>
    </message>
    <message>
        <source>dcgm-exporter endpoints (direct)</source>
        <translation>dcgm-exporter 端点（直连）</translation>
    </message>
    <message>
        <source>Discover dcgm-exporter through the cluster</source>
        <translation>通过集群发现 dcgm-exporter</translation>
    </message>
    <message>
        <source>https://prometheus.example.com</source>
        <translation>https://prometheus.example.com</translation>
    </message>
    <message>
        <source>bearer token, optional; kept in the keychain</source>
        <translation>Bearer 令牌，可选；保存在密钥环中</translation>
    </message>
    <message>
        <source>CA certificate (PEM file), optional</source>
        <translation>CA 证书（PEM 文件），可选</translation>
    </message>
    <message>
        <source>one /metrics URL per line, e.g. http://gpu-node-1:9400/metrics</source>
        <translation>每行一个 /metrics URL，例如 http://gpu-node-1:9400/metrics</translation>
    </message>
    <message>
        <source>Context:</source>
        <translation>上下文：</translation>
    </message>
    <message>
        <source>Usage database</source>
        <translation>用量数据库</translation>
    </message>
    <message>
        <source>URL:</source>
        <translation>URL：</translation>
    </message>
    <message>
        <source>Password:</source>
        <translation>密码：</translation>
    </message>
    <message>
        <source>GPU metrics</source>
        <translation>GPU 指标</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>The live GPU page stays empty until a source is set.</source>
        <translation>设置来源之前，实时 GPU 页面保持为空。</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>Token:</source>
        <translation>令牌：</translation>
    </message>
    <message>
        <source>CA file:</source>
        <translation>CA 文件：</translation>
    </message>
    <message>
        <source>The console finds dcgm-exporter pods and services by their labels (app.kubernetes.io/name=dcgm-exporter, app=nvidia-dcgm-exporter) and reads them through the API server.</source>
        <translation>控制台按标签（app.kubernetes.io/name=dcgm-exporter、app=nvidia-dcgm-exporter）查找 dcgm-exporter 的 Pod 和 Service，并通过 API 服务器读取它们。</translation>
    </message>
    <message>
        <source>Controller</source>
        <translation>控制器</translation>
    </message>
    <message>
        <source>The controller records GPU-hours into the usage database and enforces budgets; self-service and status pages talk to it here.</source>
        <translation>控制器将 GPU 时数记录到用量数据库并执行预算；自助服务和状态页面通过此处与它通信。</translation>
    </message>
    <message>
        <source>The file is created when you save and the console opens it.</source>
        <translation>保存后，控制台打开它时会创建该文件。</translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation>PEM 证书 (*.pem *.crt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Ask the cluster for the controller&apos;s ConfigMap and for dcgm-exporter pods</source>
        <translation>向集群查询控制器的 ConfigMap 和 dcgm-exporter Pod</translation>
    </message>
    <message>
        <source>Connect to this context first: discovery asks its API server</source>
        <translation>请先连接到此上下文：发现功能会询问它的 API 服务器</translation>
    </message>
    <message>
        <source>Testing...</source>
        <translation>正在测试...</translation>
    </message>
    <message>
        <source>choose a source first</source>
        <translation>请先选择来源</translation>
    </message>
    <message>
        <source>cannot read the CA file %1: %2</source>
        <translation>无法读取 CA 文件 %1：%2</translation>
    </message>
    <message>
        <source>connect to this context first: the exporters are found through its API server</source>
        <translation>请先连接到此上下文：导出器是通过它的 API 服务器找到的</translation>
    </message>
    <message>
        <source>Asking the cluster...</source>
        <translation>正在询问集群...</translation>
    </message>
    <message>
        <source>Discovery failed: %1</source>
        <translation>发现失败：%1</translation>
    </message>
    <message>
        <source>Usage database: %1</source>
        <translation>用量数据库：%1</translation>
    </message>
    <message>
        <source>Metrics: Prometheus at %1</source>
        <translation>指标：位于 %1 的 Prometheus</translation>
    </message>
    <message>
        <source>Metrics: %1</source>
        <translation>指标：%1</translation>
    </message>
    <message>
        <source>Controller: %1</source>
        <translation>控制器：%1</translation>
    </message>
    <message>
        <source>Use what the cluster advertises?</source>
        <translation>使用集群公布的设置？</translation>
    </message>
    <message>
        <source>The cluster advertises these connections for the context &quot;%1&quot;:</source>
        <translation>集群为上下文“%1”公布了以下连接：</translation>
    </message>
    <message>
        <source>Passwords and tokens are never advertised; enter them here. Nothing is saved until you press OK or Apply.</source>
        <translation>密码和令牌从不公布；请在此处输入。在您按“确定”或“应用”之前不会保存任何内容。</translation>
    </message>
    <message>
        <source>Use these settings</source>
        <translation>使用这些设置</translation>
    </message>
    <message>
        <source>http://gpuquota-controller.gpuquota-system.svc:9464</source>
        <translation>http://gpuquota-controller.gpuquota-system.svc:9464</translation>
    </message>
    <message>
        <source>A password typed into a URL was moved to the keychain (%1); the URL is saved without it.</source>
        <translation>URL 中输入的密码已移入密钥环（%1）；保存的 URL 不含该密码。</translation>
    </message>
</context>
<context>
    <name>gq::ControllerIndicator</name>
    <message>
        <source>controller: asking...</source>
        <translation>控制器：正在询问……</translation>
    </message>
    <message>
        <source>%1 (asked every minute)</source>
        <translation>%1（每分钟询问一次）</translation>
    </message>
</context>
<context>
    <name>gq::SignInIndicator</name>
    <message>
        <source>Waiting for sign-in: %1 (%2 s)… finish the login it opened, e.g. in your browser</source>
        <translation>正在等待登录：%1（%2 秒）……请完成它打开的登录，例如在浏览器中</translation>
    </message>
    <message>
        <source>Signing in: %1 (%2 s)…</source>
        <translation>正在登录：%1（%2 秒）……</translation>
    </message>
    <message>
        <source>The kubeconfig&apos;s exec credential plugin is running; requests to the cluster wait for it (up to 5 minutes for a plugin that may ask you to log in).</source>
        <translation>kubeconfig 的 exec 凭据插件正在运行；对集群的请求会等待它（可能要求您登录的插件最多等待 5 分钟）。</translation>
    </message>
</context>
<context>
    <name>gq::DemoLauncher</name>
    <message>
        <source>Could not start the demo cluster %1: %2</source>
        <translation>无法启动演示集群 %1：%2</translation>
    </message>
    <message>
        <source>Could not create a temporary directory: %1</source>
        <translation>无法创建临时目录：%1</translation>
    </message>
    <message>
        <source>The demo cluster program was not found at %1. Build the gpuquota-testcluster target, or set GQ_TESTCLUSTER.</source>
        <translation>在 %1 未找到演示集群程序。请构建 gpuquota-testcluster 目标，或设置 GQ_TESTCLUSTER。</translation>
    </message>
    <message>
        <source>The demo cluster crashed. %1</source>
        <translation>演示集群崩溃了。%1</translation>
    </message>
    <message>
        <source>The demo cluster exited with code %1. %2</source>
        <translation>演示集群已退出，退出码 %1。%2</translation>
    </message>
</context>
<context>
    <name>gq::DiffView</name>
    <message>
        <source>Previous change</source>
        <translation>上一处变更</translation>
    </message>
    <message>
        <source>Next change</source>
        <translation>下一处变更</translation>
    </message>
    <message>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>Yours</source>
        <translation>你的版本</translation>
    </message>
    <message>
        <source>No differences</source>
        <translation>没有差异</translation>
    </message>
    <message>
        <source>1 line changed</source>
        <translation>1 行已修改</translation>
    </message>
    <message>
        <source>%1 lines changed</source>
        <translation>%1 行已修改</translation>
    </message>
    <message>
        <source>1 line added</source>
        <translation>1 行已添加</translation>
    </message>
    <message>
        <source>%1 lines added</source>
        <translation>%1 行已添加</translation>
    </message>
    <message>
        <source>1 line removed</source>
        <translation>1 行已删除</translation>
    </message>
    <message>
        <source>%1 lines removed</source>
        <translation>%1 行已删除</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
</context>
<context>
    <name>gq::DraftOfferBar</name>
    <message>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Put the draft back into the editor; nothing is applied until you press Apply</source>
        <translation>将草稿放回编辑器；在你点击“应用”之前不会应用任何内容</translation>
    </message>
    <message>
        <source>Show diff</source>
        <translation>查看差异</translation>
    </message>
    <message>
        <source>Compare the draft with the object on the server</source>
        <translation>将草稿与服务器上的对象进行比较</translation>
    </message>
    <message>
        <source>Discard</source>
        <translation>丢弃</translation>
    </message>
    <message>
        <source>Delete the draft for good</source>
        <translation>永久删除该草稿</translation>
    </message>
</context>
<context>
    <name>gq::DrillDownDialog</name>
    <message>
        <source>Intervals behind the bar</source>
        <translation>柱段对应的用量区间</translation>
    </message>
    <message>
        <source>Loading...</source>
        <translation>正在加载……</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>导出 CSV……</translation>
    </message>
    <message>
        <source>Could not read the intervals: %1</source>
        <translation>无法读取用量区间：%1</translation>
    </message>
    <message numerus="yes">
        <source>%n interval(s), sum %1 GPU-h (the bar: %2 GPU-h)</source>
        <translation>
            <numerusform>%n 个区间，合计 %1 GPU 小时（柱段：%2 GPU 小时）</numerusform>
        </translation>
    </message>
    <message>
        <source>Export intervals as CSV</source>
        <translation>将用量区间导出为 CSV</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>gq::DrillDownModel</name>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>%1 (estimated)</source>
        <translation>%1（估算）</translation>
    </message>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>End</source>
        <translation>结束</translation>
    </message>
    <message>
        <source>GPU-hours in bucket</source>
        <translation>本时段 GPU 小时</translation>
    </message>
</context>
<context>
    <name>gq::ExporterDiscovery</name>
    <message>
        <source>not allowed to list pods in all namespaces, which finding dcgm-exporter needs: %1</source>
        <translation>无权列出所有命名空间中的 Pod，而查找 dcgm-exporter 需要此权限：%1</translation>
    </message>
    <message>
        <source>dcgm-exporter pod %1/%2 is %3: not read</source>
        <translation>dcgm-exporter Pod %1/%2 的状态为 %3：未读取</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>cannot read dcgm-exporter pod %1 through the API server: %2</source>
        <translation>无法通过 API 服务器读取 dcgm-exporter Pod %1：%2</translation>
    </message>
    <message>
        <source>no dcgm-exporter pods found (labels %1)</source>
        <translation>未找到 dcgm-exporter Pod（标签 %1）</translation>
    </message>
    <message numerus="yes">
        <source>%n dcgm-exporter pod(s) found, none running</source>
        <translation>
            <numerusform>找到 %n 个 dcgm-exporter Pod，但没有一个在运行</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 dcgm-exporter pods answer through the API server, %3 GPUs reporting</source>
        <translation>%2 个 dcgm-exporter Pod 中有 %1 个通过 API 服务器应答，%3 个 GPU 在报告</translation>
    </message>
    <message>
        <source>not connected to a cluster: dcgm-exporter is found through its API server</source>
        <translation>未连接到集群：dcgm-exporter 需要通过集群的 API 服务器查找</translation>
    </message>
</context>
<context>
    <name>gq::FindBar</name>
    <message>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配（Shift+F3）</translation>
    </message>
    <message>
        <source>Next match (F3)</source>
        <translation>下一个匹配（F3）</translation>
    </message>
    <message>
        <source>Aa</source>
        <translation>Aa</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
</context>
<context>
    <name>gq::HardLimitDelegate</name>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source> cores</source>
        <translation> 核</translation>
    </message>
    <message>
        <source> GiB</source>
        <translation> GiB</translation>
    </message>
</context>
<context>
    <name>gq::IdleGpuModel</name>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 小时 %2 分钟</translation>
    </message>
    <message>
        <source>%1 #%2</source>
        <translation>%1 #%2</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>MIG</source>
        <translation>MIG</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Pod</source>
        <translation>Pod</translation>
    </message>
    <message>
        <source>Idle since</source>
        <translation>空闲起始</translation>
    </message>
    <message>
        <source>For</source>
        <translation>持续</translation>
    </message>
    <message>
        <source>Mean util.</source>
        <translation>平均利用率</translation>
    </message>
    <message>
        <source>GPU-h wasted</source>
        <translation>浪费的 GPU 小时</translation>
    </message>
    <message>
        <source>Open %1 and its quota</source>
        <translation>打开 %1 及其配额</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
</context>
<context>
    <name>gq::LeaderElector</name>
    <message>
        <source>leader election needs a cluster connection</source>
        <translation>领导者选举需要集群连接</translation>
    </message>
    <message>
        <source>the Lease&apos;s namespace is empty</source>
        <translation>Lease 的命名空间为空</translation>
    </message>
    <message>
        <source>the Lease&apos;s name is empty</source>
        <translation>Lease 的名称为空</translation>
    </message>
    <message>
        <source>the lease duration must be positive</source>
        <translation>租约时长必须为正数</translation>
    </message>
    <message>
        <source>the renew deadline must be below the lease duration</source>
        <translation>续约期限必须短于租约时长</translation>
    </message>
    <message>
        <source>the retry period must be below the renew deadline</source>
        <translation>重试间隔必须短于续约期限</translation>
    </message>
</context>
<context>
    <name>gq::LimitRangeModel</name>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Default request</source>
        <translation>默认请求</translation>
    </message>
    <message>
        <source>Default limit</source>
        <translation>默认限制</translation>
    </message>
    <message>
        <source>Max limit/request</source>
        <translation>最大限制/请求比</translation>
    </message>
</context>
<context>
    <name>gq::LimitRangePage</name>
    <message>
        <source>LimitRange:</source>
        <translation>LimitRange：</translation>
    </message>
    <message>
        <source>Select a namespace on the left.</source>
        <translation>请在左侧选择一个命名空间。</translation>
    </message>
    <message>
        <source>Namespace %1 has no LimitRange. Create one from a template.</source>
        <translation>命名空间 %1 没有 LimitRange。请从模板创建一个。</translation>
    </message>
    <message>
        <source>You may not update LimitRanges in %1 (SelfSubjectAccessReview denied).</source>
        <translation>你无权更新 %1 中的 LimitRange（SelfSubjectAccessReview 拒绝）。</translation>
    </message>
    <message>
        <source>You may not create LimitRanges in %1.</source>
        <translation>你无权在 %1 中创建 LimitRange。</translation>
    </message>
    <message>
        <source>No LimitRange selected</source>
        <translation>未选择 LimitRange</translation>
    </message>
</context>
<context>
    <name>gq::LiveGpuModel</name>
    <message>
        <source>Util. (%)</source>
        <translation>利用率 (%)</translation>
    </message>
    <message>
        <source> (claim %1)</source>
        <translation>（申领 %1）</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>无数据</translation>
    </message>
    <message>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
    <message>
        <source> +%1</source>
        <translation> +%1</translation>
    </message>
    <message>
        <source>%1 #%2</source>
        <translation>%1 #%2</translation>
    </message>
    <message>
        <source>MIG GPU</source>
        <translation>MIG GPU</translation>
    </message>
    <message>
        <source>%1 W</source>
        <translation>%1 W</translation>
    </message>
    <message>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <source>shared ×%1</source>
        <translation>共享 ×%1</translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation>%1/%2</translation>
    </message>
    <message>
        <source>%1/%2 (container %3)</source>
        <translation>%1/%2（容器 %3）</translation>
    </message>
    <message numerus="yes">
        <source>Shared by %n holder(s):</source>
        <translation>
            <numerusform>由 %n 个持有者共享：</numerusform>
        </translation>
    </message>
    <message>
        <source>Utilization over the last 15 minutes</source>
        <translation>最近 15 分钟的利用率</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>节点</translation>
    </message>
    <message>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>型号</translation>
    </message>
    <message>
        <source>MIG</source>
        <translation>MIG</translation>
    </message>
    <message>
        <source>Utilization</source>
        <translation>利用率</translation>
    </message>
    <message>
        <source>Memory used / total</source>
        <translation>显存 已用 / 总量</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>功率</translation>
    </message>
    <message>
        <source>Temp.</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Holder (namespace/pod)</source>
        <translation>持有者（命名空间/Pod）</translation>
    </message>
    <message>
        <source>Shared</source>
        <translation>共享</translation>
    </message>
    <message>
        <source>Last 15 min</source>
        <translation>最近 15 分钟</translation>
    </message>
    <message>
        <source>free</source>
        <translation>空闲未分配</translation>
    </message>
    <message>
        <source> · free</source>
        <translation> · 未分配</translation>
    </message>
    <message>
        <source>, user %1</source>
        <translation>，用户 %1</translation>
    </message>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>gq::LiveGpuPage</name>
    <message>
        <source>The utilization history needs Prometheus: exporters scraped directly keep no history.</source>
        <translation>利用率历史需要 Prometheus：直接抓取的导出器不保留历史。</translation>
    </message>
    <message>
        <source>Filter by node, model, namespace or pod</source>
        <translation>按节点、型号、命名空间或 Pod 筛选</translation>
    </message>
    <message>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <source>Tiles</source>
        <translation>磁贴</translation>
    </message>
    <message>
        <source>One row per GPU and MIG instance</source>
        <translation>每个 GPU 和 MIG 实例一行</translation>
    </message>
    <message>
        <source>One tile per GPU, coloured by utilization; an orange frame marks an allocated GPU under the idle threshold</source>
        <translation>每个 GPU 一个磁贴，按利用率着色；橙色边框表示已分配但低于空闲阈值的 GPU</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Mean GPU utilization by namespace, last hour</source>
        <translation>最近一小时各命名空间的平均 GPU 利用率</translation>
    </message>
    <message>
        <source>The source reported: %1</source>
        <translation>数据源报告：%1</translation>
    </message>
    <message>
        <source>No GPU was allocated to a namespace in the last hour.</source>
        <translation>最近一小时没有 GPU 分配给任何命名空间。</translation>
    </message>
    <message>
        <source> Showing the readings of %1.</source>
        <translation>显示的是 %1 的读数。</translation>
    </message>
    <message>
        <source>Could not read the GPU metrics: %1. Retrying automatically.</source>
        <translation>无法读取 GPU 指标：%1。正在自动重试。</translation>
    </message>
    <message>
        <source>Waiting for the first GPU readings…</source>
        <translation>正在等待第一批 GPU 读数…</translation>
    </message>
    <message>
        <source>No metrics source.</source>
        <translation>没有指标数据源。</translation>
    </message>
    <message numerus="yes">
        <source>%n busy</source>
        <translation>
            <numerusform>%n 个繁忙</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n allocated but idle</source>
        <translation>
            <numerusform>%n 个已分配但空闲</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n free</source>
        <translation>
            <numerusform>%n 个未分配</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n shared</source>
        <translation>
            <numerusform>%n 个共享</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a reading</source>
        <translation>
            <numerusform>%n 个无读数</numerusform>
        </translation>
    </message>
    <message>
        <source>GPUs: %1</source>
        <translation>GPU：%1</translation>
    </message>
    <message>
        <source>Idle: allocated and under %1 % utilization now. A MIG instance counts as one GPU.</source>
        <translation>空闲：已分配且当前利用率低于 %1 %。一个 MIG 实例计为一个 GPU。</translation>
    </message>
    <message>
        <source>Idle GPUs (%1)</source>
        <translation>空闲 GPU（%1）</translation>
    </message>
    <message>
        <source>Idle GPUs</source>
        <translation>空闲 GPU</translation>
    </message>
    <message>
        <source>Allocated GPUs under %1 % utilization for at least %2 (set in Preferences).</source>
        <translation>利用率低于 %1 % 且持续至少 %2 的已分配 GPU（在首选项中设置）。</translation>
    </message>
    <message>
        <source>Idle detection needs Prometheus: exporters scraped directly keep no history.</source>
        <translation>空闲检测需要 Prometheus：直接抓取的导出器不保留历史。</translation>
    </message>
    <message>
        <source>None right now.</source>
        <translation>目前没有。</translation>
    </message>
    <message>
        <source>Prometheus said about the history: %1</source>
        <translation>Prometheus 关于历史数据的提示：%1</translation>
    </message>
    <message>
        <source>Idle now: %1, with %2 GPU-hours wasted so far. Click a namespace to open its quota.</source>
        <translation>当前空闲：%1 个，迄今浪费 %2 GPU 小时。单击命名空间可打开其配额。</translation>
    </message>
    <message>
        <source>Spans the controller recorded in the usage database, lasting at least %1 (the controller&apos;s threshold applies; utilization is not recorded).</source>
        <translation>控制器记录在用量数据库中、持续至少 %1 的空闲时段（使用控制器的阈值；不记录利用率）。</translation>
    </message>
    <message>
        <source>Could not read them: %1</source>
        <translation>无法读取：%1</translation>
    </message>
</context>
<context>
    <name>gq::ContextServices</name>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
</context>
<context>
    <name>gq::MainWindow</name>
    <message>
        <source>Queues</source>
        <translation>队列</translation>
    </message>
    <message>
        <source>GPU Quota Console</source>
        <translation>GPU 配额控制台</translation>
    </message>
    <message>
        <source>Kubernetes context (from the kubeconfig)</source>
        <translation>Kubernetes 上下文（来自 kubeconfig）</translation>
    </message>
    <message>
        <source>Quotas</source>
        <translation>配额</translation>
    </message>
    <message>
        <source>Limit ranges</source>
        <translation>限制范围</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <source>Usage database: %1</source>
        <translation>用量数据库：%1</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source> Context: </source>
        <translation> 上下文： </translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>List everything again from the server (F5)</source>
        <translation>从服务器重新列出全部内容（F5）</translation>
    </message>
    <message>
        <source>Templates...</source>
        <translation>模板……</translation>
    </message>
    <message>
        <source>Apply a quota template to the selected namespaces</source>
        <translation>将配额模板应用到所选命名空间</translation>
    </message>
    <message>
        <source>Filter namespaces</source>
        <translation>筛选命名空间</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>GPU Quota Console — demo</source>
        <translation>GPU 配额控制台 — 演示</translation>
    </message>
    <message>
        <source>Applied; no usage database is open, so no audit entry was written.</source>
        <translation>已应用；由于没有打开用量数据库，未写入审计记录。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>as %1</source>
        <translation>身份：%1</translation>
    </message>
    <message>
        <source>Disconnected</source>
        <translation>已断开</translation>
    </message>
    <message>
        <source>Connecting...</source>
        <translation>正在连接……</translation>
    </message>
    <message>
        <source>Syncing...</source>
        <translation>正在同步……</translation>
    </message>
    <message>
        <source>● Live</source>
        <translation>● 实时</translation>
    </message>
    <message>
        <source>Reconnecting...</source>
        <translation>正在重新连接……</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>updated just now</source>
        <translation>刚刚更新</translation>
    </message>
    <message>
        <source>updated %1 s ago</source>
        <translation>%1 秒前更新</translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation>未连接到集群。</translation>
    </message>
    <message>
        <source>Loading namespaces...</source>
        <translation>正在加载命名空间……</translation>
    </message>
    <message>
        <source>This cluster has no namespaces, or none this identity may list.</source>
        <translation>此集群没有命名空间，或当前身份无权列出任何命名空间。</translation>
    </message>
    <message>
        <source>No connection; see the message above.</source>
        <translation>未连接；请查看上方的消息。</translation>
    </message>
    <message>
        <source>%1 (not in the kubeconfig)</source>
        <translation>%1（不在 kubeconfig 中）</translation>
    </message>
    <message>
        <source>Cluster usage</source>
        <translation>集群用量</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Budgets</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Chargeback</source>
        <translation>费用分摊</translation>
    </message>
    <message>
        <source>Connections...</source>
        <translation>连接...</translation>
    </message>
    <message>
        <source>Usage database, metrics and controller of this context</source>
        <translation>此上下文的用量数据库、指标和控制器</translation>
    </message>
    <message>
        <source>&amp;Open kubeconfig...</source>
        <translation>打开 kubeconfig(&amp;O)...</translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation>首选项(&amp;P)...</translation>
    </message>
    <message>
        <source>No kubeconfig was found at %1, and KUBECONFIG is not set.</source>
        <translation>在 %1 未找到 kubeconfig，且未设置 KUBECONFIG。</translation>
    </message>
    <message>
        <source>The kubeconfig %1 does not exist (yet). The console connects by itself once it is there.</source>
        <translation>kubeconfig %1（尚）不存在。文件出现后控制台会自动连接。</translation>
    </message>
    <message>
        <source>Open kubeconfig</source>
        <translation>打开 kubeconfig</translation>
    </message>
    <message>
        <source>Configure the usage database...</source>
        <translation>配置用量数据库...</translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; has no usage database. Create an embedded SQLite database for it, so that quota edits are audited and budgets can be set at once? GPU-hours are recorded by the gpuquota controller into the database it is given; point this context at that one under Connections when it runs.</source>
        <translation>上下文“%1”没有用量数据库。要为它创建一个嵌入式 SQLite 数据库，以便立即审计配额修改并设置预算吗？GPU 时数由 gpuquota 控制器记录到为它指定的数据库中；控制器运行后，请在“连接”中将此上下文指向那个数据库。</translation>
    </message>
    <message>
        <source>Create embedded database</source>
        <translation>创建嵌入式数据库</translation>
    </message>
    <message>
        <source>Created the usage database %1 for &quot;%2&quot;.</source>
        <translation>已为“%2”创建用量数据库 %1。</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About GPU Quota Console</source>
        <translation>关于 GPU 配额控制台(&amp;A)</translation>
    </message>
    <message>
        <source>Boosts</source>
        <translation>临时提额</translation>
    </message>
    <message>
        <source>Live GPUs</source>
        <translation>实时 GPU</translation>
    </message>
    <message>
        <source>This context</source>
        <translation>此上下文</translation>
    </message>
    <message>
        <source>The context &quot;%1&quot;</source>
        <translation>上下文“%1”</translation>
    </message>
    <message>
        <source>Configure the metrics source...</source>
        <translation>配置指标数据源……</translation>
    </message>
    <message>
        <source>Over the GPU-hour budget: %1</source>
        <translation>超出 GPU 小时预算：%1</translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; has no usage database yet. GPU-hours, budgets, boosts, the audit trail and the chargeback are kept there.</source>
        <translation>上下文“%1”尚无用量数据库。GPU 时数、预算、临时提额、审计记录和费用分摊都保存在那里。</translation>
    </message>
    <message>
        <source>%1 has no GPU metrics source. The live GPU view reads NVIDIA dcgm-exporter&apos;s metrics, best through Prometheus (its URL, and a token or CA if it needs them), or by scraping the exporters&apos; /metrics endpoints directly, or by finding the exporter pods through the cluster and reading them through its API server (no history for these two: no sparklines and no idle list). Set one under Preferences &gt; Connections &gt; Metrics.</source>
        <translation>%1 没有 GPU 指标数据源。实时 GPU 视图读取 NVIDIA dcgm-exporter 的指标，最好通过 Prometheus（其 URL，以及需要时的令牌或 CA），也可以直接抓取导出器的 /metrics 端点，或通过集群找到导出器 Pod 并经由其 API 服务器读取（后两种方式没有历史：没有迷你走势图，也没有空闲列表）。请在 首选项 &gt; 连接 &gt; 指标 中设置。</translation>
    </message>
    <message>
        <source>You may not list every namespace of this cluster, so only %1 (the namespace of context %2) is shown. The server said: %3</source>
        <translation>你无权列出此集群的全部命名空间，因此只显示 %1（上下文 %2 的命名空间）。服务器答复：%3</translation>
    </message>
</context>
<context>
    <name>gq::MessageBanner</name>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
</context>
<context>
    <name>gq::NamespaceListModel</name>
    <message>
        <source>Terminating</source>
        <translation>正在终止</translation>
    </message>
    <message>
        <source>This namespace is being deleted (Terminating): the API server refuses new objects in it, so its quotas cannot be created or edited.</source>
        <translation>此命名空间正在删除（Terminating）：API 服务器拒绝在其中创建新对象，因此无法创建或编辑其配额。</translation>
    </message>
    <message>
        <source>over budget</source>
        <translation>超出预算</translation>
    </message>
    <message>
        <source>near limit</source>
        <translation>接近上限</translation>
    </message>
    <message>
        <source>no quota</source>
        <translation>无配额</translation>
    </message>
    <message>
        <source>%1 of the limit used</source>
        <translation>已使用上限的 %1</translation>
    </message>
    <message>
        <source>No quota limits this resource</source>
        <translation>没有配额限制此资源</translation>
    </message>
    <message>
        <source>At least one resource is at 80% of its hard limit or more</source>
        <translation>至少有一项资源已达到其硬性上限的 80% 或以上</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>CPU (cores)</source>
        <translation>CPU（核）</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>GPU-hour budget: %1</source>
        <translation>GPU 小时预算：%1</translation>
    </message>
    <message>
        <source>Over its GPU-hour budget</source>
        <translation>已超出 GPU 小时预算</translation>
    </message>
    <message>
        <source>No ResourceQuota limits this namespace; create one from a template</source>
        <translation>此命名空间没有 ResourceQuota 限制；请从模板创建一个</translation>
    </message>
    <message>
        <source>grace until %1</source>
        <translation>宽限至 %1</translation>
    </message>
    <message>
        <source>near budget</source>
        <translation>接近预算</translation>
    </message>
    <message numerus="yes">
        <source>%n h</source>
        <translation>
            <numerusform>%n 小时</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n min</source>
        <translation>
            <numerusform>%n 分钟</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n s</source>
        <translation>
            <numerusform>%n 秒</numerusform>
        </translation>
    </message>
    <message>
        <source>Over its GPU-hour budget: %1 — grace (%2) is over; new and running jobs are denied</source>
        <translation>超出 GPU 小时预算：%1 — 宽限期（%2）已结束；新作业和运行中的作业均被拒绝</translation>
    </message>
    <message>
        <source>Over its GPU-hour budget: %1 — no grace; new and running jobs are denied</source>
        <translation>超出 GPU 小时预算：%1 — 无宽限期；新作业和运行中的作业均被拒绝</translation>
    </message>
    <message>
        <source>Over its GPU-hour budget: %1 — running jobs may continue until %2 (grace %3); new jobs are denied</source>
        <translation>超出 GPU 小时预算：%1 — 运行中的作业可继续到 %2（宽限 %3）；新作业被拒绝</translation>
    </message>
    <message>
        <source>Near its GPU-hour budget: %1 (%2)</source>
        <translation>接近 GPU 小时预算：%1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%n user(s) running here over their own GPU-hour budget: %1</source>
        <translation>
            <numerusform>此处有 %n 个用户正在运行且已超出其个人 GPU 小时预算：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>Counts MIG slices (%1), not whole GPUs: this namespace&apos;s quota limits only those.</source>
        <translation>计数的是 MIG 切片（%1），而非整块 GPU：此命名空间的配额只限制这些切片。</translation>
    </message>
    <message>
        <source>Counts %1</source>
        <translation>计数：%1</translation>
    </message>
    <message>
        <source>GPUs from DRA claims of the device class %1 (%2)</source>
        <translation>来自设备类 %1 的 DRA 申领的 GPU（%2）</translation>
    </message>
    <message>
        <source>Whole GPUs (requests.nvidia.com/gpu). Where a namespace&apos;s quota limits only MIG slices, its row counts those slices; the cell&apos;s tooltip names the resource.</source>
        <translation>整块 GPU（requests.nvidia.com/gpu）。若命名空间的配额只限制 MIG 切片，该行计数的是这些切片；单元格提示会注明资源名称。</translation>
    </message>
    <message>
        <source>GPUs / MIG</source>
        <translation>GPU / MIG</translation>
    </message>
    <message>
        <source>%1 · %2%</source>
        <translation>%1 · %2%</translation>
    </message>
    <message>
        <source>Live: %1 GPU(s) held at %2% mean utilization</source>
        <translation>实时：占用 %1 个 GPU，平均利用率 %2%</translation>
    </message>
    <message>
        <source>Alerts go to: %1</source>
        <translation>告警发送给：%1</translation>
    </message>
    <message>
        <source>not yet enforced</source>
        <translation>尚未生效</translation>
    </message>
    <message>
        <source>Not enforced yet: quota admission still applies the old value until kube-controller-manager copies the new limit to the quota&apos;s status (%1).</source>
        <translation>尚未生效：在 kube-controller-manager 把新的上限复制到配额的 status 之前，配额准入仍按旧值执行（%1）。</translation>
    </message>
    <message>
        <source>Kueue queue</source>
        <translation>Kueue 队列</translation>
    </message>
    <message>
        <source>%1 → %2 %3/%4</source>
        <translation>%1 → %2 %3/%4</translation>
    </message>
    <message>
        <source>No Kueue LocalQueue in this namespace</source>
        <translation>此命名空间没有 Kueue LocalQueue</translation>
    </message>
    <message numerus="yes">
        <source>LocalQueue %1 → ClusterQueue %2: %3 of %4 nominal GPUs reserved, %n pending workload(s)</source>
        <translation>
            <numerusform>LocalQueue %1 → ClusterQueue %2：已预留 %3 / %4 个名义 GPU，%n 个等待中的工作负载</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gq::NamespacePanel</name>
    <message>
        <source>Plan a fine-tune…</source>
        <translation>规划微调…</translation>
    </message>
    <message>
        <source>Filter namespaces (Ctrl+F)</source>
        <translation>筛选命名空间（Ctrl+F）</translation>
    </message>
    <message numerus="yes">
        <source>%n namespace(s)</source>
        <translation>
            <numerusform>%n 个命名空间</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 of %n namespace(s)</source>
        <translation>
            <numerusform>%1 / %n 个命名空间</numerusform>
        </translation>
    </message>
    <message>
        <source>No namespace matches “%1”.</source>
        <translation>没有与“%1”匹配的命名空间。</translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation>清除筛选</translation>
    </message>
    <message>
        <source>Create quota from template...</source>
        <translation>从模板创建配额……</translation>
    </message>
    <message>
        <source>Apply a template...</source>
        <translation>应用模板……</translation>
    </message>
    <message>
        <source>Copy names</source>
        <translation>复制所选名称</translation>
    </message>
    <message>
        <source>Copy name</source>
        <translation>复制名称</translation>
    </message>
    <message>
        <source>Boost…</source>
        <translation>临时提额…</translation>
    </message>
</context>
<context>
    <name>gq::NamespaceUsagePage</name>
    <message>
        <source>Budget period</source>
        <translation>预算周期</translation>
    </message>
    <message>
        <source>Show the current period of the namespace&apos;s budget, with its line</source>
        <translation>显示命名空间预算的当前周期及其预算线</translation>
    </message>
    <message>
        <source>Double-click a user for their usage across namespaces</source>
        <translation>双击用户，查看其在各命名空间的用量</translation>
    </message>
    <message>
        <source>GPU-hours in %1 by user</source>
        <translation>%1 中按用户的 GPU 小时</translation>
    </message>
    <message>
        <source>%1 has no GPU-hour budget.</source>
        <translation>%1 没有 GPU 小时预算。</translation>
    </message>
    <message>
        <source>Budget of %1: %2</source>
        <translation>%1 的预算：%2</translation>
    </message>
</context>
<context>
    <name>gq::ObjectPage</name>
    <message>
        <source>New from template...</source>
        <translation>从模板新建……</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>An unsaved draft of %1/%2 from %3 was found.</source>
        <translation>发现 %1/%2 于 %3 保存的未应用草稿。</translation>
    </message>
    <message>
        <source>The object has changed on the server since; Restore lets you rebase the draft onto it.</source>
        <translation>此后服务器上的对象已发生变化；“恢复”可让你将草稿变基到最新版本上。</translation>
    </message>
    <message>
        <source>The draft of %1/%2 is no longer there.</source>
        <translation>%1/%2 的草稿已不存在。</translation>
    </message>
    <message>
        <source>Your draft was written against an older version of this object.</source>
        <translation>你的草稿基于此对象的旧版本编写。</translation>
    </message>
    <message>
        <source>Draft of %1/%2 restored; review it and press Apply when ready.</source>
        <translation>已恢复 %1/%2 的草稿；请检查后在准备好时点击“应用”。</translation>
    </message>
    <message>
        <source>Draft of %1/%2</source>
        <translation>%1/%2 的草稿</translation>
    </message>
    <message>
        <source>On the server now</source>
        <translation>服务器上的当前版本</translation>
    </message>
    <message>
        <source>Your draft</source>
        <translation>你的草稿</translation>
    </message>
    <message>
        <source>Draft of %1/%2 discarded.</source>
        <translation>已丢弃 %1/%2 的草稿。</translation>
    </message>
    <message>
        <source>Checking your permissions...</source>
        <translation>正在检查你的权限……</translation>
    </message>
    <message>
        <source>Create a ResourceQuota and LimitRange from a template</source>
        <translation>从模板创建 ResourceQuota 和 LimitRange</translation>
    </message>
    <message>
        <source>First restore or discard the unsaved draft found for this object (the bar above).</source>
        <translation>请先恢复或丢弃为此对象找到的未应用草稿（见上方提示栏）。</translation>
    </message>
    <message>
        <source>Fix the errors marked in the editor first</source>
        <translation>请先修正编辑器中标出的错误</translation>
    </message>
    <message>
        <source>Validate, dry-run on the server, review the diff, then apply (Ctrl+S)</source>
        <translation>校验、在服务器上试运行、检查差异，然后应用（Ctrl+S）</translation>
    </message>
    <message>
        <source>Nothing to apply</source>
        <translation>没有可应用的内容</translation>
    </message>
    <message>
        <source>Apply refused: the YAML has errors (first on line %1).</source>
        <translation>已拒绝应用：YAML 有错误（第一个在第 %1 行）。</translation>
    </message>
    <message>
        <source>Apply cancelled; your edit is kept.</source>
        <translation>已取消应用；你的编辑已保留。</translation>
    </message>
    <message>
        <source>Applied %1/%2</source>
        <translation>已应用 %1/%2</translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation>应用失败：%1</translation>
    </message>
    <message>
        <source> at line %1</source>
        <translation>，位于第 %1 行</translation>
    </message>
    <message>
        <source>Conflict left open: your edit is kept, nothing was written.</source>
        <translation>冲突未解决：你的编辑已保留，未写入任何内容。</translation>
    </message>
    <message>
        <source>Your version is now based on the server&apos;s; press Apply to overwrite.</source>
        <translation>你的版本现在基于服务器版本；按“应用”进行覆盖。</translation>
    </message>
    <message>
        <source>Your change was rebased onto the server&apos;s version; review and Apply.</source>
        <translation>你的修改已变基到服务器版本上；请检查后应用。</translation>
    </message>
    <message>
        <source>Your change was discarded; showing the server&apos;s version.</source>
        <translation>你的修改已丢弃；正在显示服务器版本。</translation>
    </message>
    <message>
        <source>Someone changed this %1 on the server while you were editing it.</source>
        <translation>在你编辑期间，有人修改了服务器上的此 %1。</translation>
    </message>
    <message>
        <source>%1 %2/%3 was deleted on the server; your edit is kept in the editor.</source>
        <translation>%1 %2/%3 已在服务器上被删除；你的编辑仍保留在编辑器中。</translation>
    </message>
</context>
<context>
    <name>gq::PreferencesDialog</name>
    <message>
        <source>The page open when the window was closed</source>
        <translation>关闭窗口时打开的页面</translation>
    </message>
    <message>
        <source>Cluster usage</source>
        <translation>集群用量</translation>
    </message>
    <message>
        <source>Quotas</source>
        <translation>配额</translation>
    </message>
    <message>
        <source>Limit ranges</source>
        <translation>限制范围</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>用量</translation>
    </message>
    <message>
        <source>Budgets</source>
        <translation>预算</translation>
    </message>
    <message>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <source>Chargeback</source>
        <translation>费用分摊</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>System time zone (%1)</source>
        <translation>系统时区（%1）</translation>
    </message>
    <message>
        <source>In the banner above the content</source>
        <translation>在内容上方的横幅中</translation>
    </message>
    <message>
        <source>In the status bar only</source>
        <translation>仅在状态栏中</translation>
    </message>
    <message>
        <source>Not shown (the list marks still show)</source>
        <translation>不显示（列表标记仍会显示）</translation>
    </message>
    <message>
        <source>Display</source>
        <translation>显示</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <source>A new language shows after the console is restarted.</source>
        <translation>新语言在重启控制台后生效。</translation>
    </message>
    <message>
        <source>Time zone for charts and budgets:</source>
        <translation>图表和预算的时区：</translation>
    </message>
    <message>
        <source>Start page:</source>
        <translation>起始页：</translation>
    </message>
    <message>
        <source>Alerts:</source>
        <translation>警报：</translation>
    </message>
    <message>
        <source>Refresh and idle GPUs</source>
        <translation>刷新与空闲 GPU</translation>
    </message>
    <message>
        <source>Budget and usage refresh:</source>
        <translation>预算和用量刷新：</translation>
    </message>
    <message>
        <source>Live GPU refresh:</source>
        <translation>实时 GPU 刷新：</translation>
    </message>
    <message>
        <source>A GPU is idle below:</source>
        <translation>GPU 利用率低于此值视为空闲：</translation>
    </message>
    <message>
        <source>for at least:</source>
        <translation>持续至少：</translation>
    </message>
    <message>
        <source>Rate per GPU-hour:</source>
        <translation>每 GPU 小时费率：</translation>
    </message>
    <message>
        <source>Currency:</source>
        <translation>货币：</translation>
    </message>
    <message>
        <source>A MIG slice is charged its fraction of a GPU.</source>
        <translation>MIG 切片按其占 GPU 的比例计费。</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Connections</source>
        <translation>连接</translation>
    </message>
    <message>
        <source>Boosts</source>
        <translation>临时提额</translation>
    </message>
    <message>
        <source>Live GPUs</source>
        <translation>实时 GPU</translation>
    </message>
    <message>
        <source>The Live GPUs page marks GPUs idle with these thresholds. The chargeback&apos;s idle share comes from the idle spans the controller records, with the thresholds of its own configuration.</source>
        <translation>“实时 GPU”页面按这些阈值将 GPU 标记为空闲。费用分摊中的空闲占比来自控制器记录的空闲时段，采用控制器自身配置中的阈值。</translation>
    </message>
</context>
<context>
    <name>gq::QuotaPage</name>
    <message>
        <source>Not counted by quota: %1. Extended resources are limited only as requests.&lt;name&gt;; these entries limit nothing.</source>
        <translation>配额不计入：%1。扩展资源只能以 requests.&lt;名称&gt; 的形式限制；这些条目不限制任何内容。</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove row</source>
        <translation>删除行</translation>
    </message>
    <message>
        <source>Edit as YAML</source>
        <translation>以 YAML 编辑</translation>
    </message>
    <message>
        <source>One GPU less (%1)</source>
        <translation>减少一个 GPU（%1）</translation>
    </message>
    <message>
        <source>One GPU more (%1)</source>
        <translation>增加一个 GPU（%1）</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>limit, e.g. 4 or 64Gi</source>
        <translation>上限，例如 4 或 64Gi</translation>
    </message>
    <message>
        <source>Validate, dry-run on the server, review the diff, then apply (Ctrl+S)</source>
        <translation>校验、在服务器上试运行、检查差异，然后应用（Ctrl+S）</translation>
    </message>
    <message>
        <source>ResourceQuota:</source>
        <translation>ResourceQuota：</translation>
    </message>
    <message>
        <source>Select a namespace on the left.</source>
        <translation>请在左侧选择一个命名空间。</translation>
    </message>
    <message>
        <source>Fix the YAML before switching to the table: %1</source>
        <translation>切换到表格前请先修正 YAML：%1</translation>
    </message>
    <message>
        <source>Enter a resource name.</source>
        <translation>请输入资源名称。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a quantity: %2</source>
        <translation>“%1”不是有效的数量：%2</translation>
    </message>
    <message>
        <source>%1 is already in the quota; edit its hard limit instead.</source>
        <translation>%1 已在配额中；请直接编辑其硬性上限。</translation>
    </message>
    <message>
        <source>You may not update ResourceQuotas in %1 (SelfSubjectAccessReview denied%2).</source>
        <translation>你无权更新 %1 中的 ResourceQuota（SelfSubjectAccessReview 拒绝%2）。</translation>
    </message>
    <message>
        <source>You may not create ResourceQuotas in %1.</source>
        <translation>你无权在 %1 中创建 ResourceQuota。</translation>
    </message>
    <message>
        <source>No ResourceQuota selected</source>
        <translation>未选择 ResourceQuota</translation>
    </message>
    <message>
        <source>Add a resource to the quota</source>
        <translation>向配额添加一项资源</translation>
    </message>
    <message>
        <source>Stop limiting the selected resource</source>
        <translation>不再限制所选资源</translation>
    </message>
    <message>
        <source>Below current use: %1. Pods already running keep running, but new pods will be rejected by the API server until use falls below the new limit.</source>
        <translation>低于当前用量：%1。已在运行的 Pod 会继续运行，但在用量降到新上限以下之前，API 服务器会拒绝新的 Pod。</translation>
    </message>
    <message>
        <source>%1: the new limit is below current use; running pods keep running, new pods will be rejected.</source>
        <translation>%1：新上限低于当前用量；运行中的 Pod 会继续运行，新的 Pod 将被拒绝。</translation>
    </message>
    <message>
        <source>Open file...</source>
        <translation>打开文件……</translation>
    </message>
    <message>
        <source>Save to file...</source>
        <translation>保存到文件……</translation>
    </message>
    <message>
        <source>Load a manifest from a file into the YAML editor (undoable)</source>
        <translation>从文件将清单载入 YAML 编辑器（可撤销）</translation>
    </message>
    <message>
        <source>Save the YAML as it is now to a file</source>
        <translation>将当前的 YAML 保存到文件</translation>
    </message>
    <message>
        <source>Open a ResourceQuota manifest</source>
        <translation>打开 ResourceQuota 清单</translation>
    </message>
    <message>
        <source>YAML files (*.yaml *.yml);;All files (*)</source>
        <translation>YAML 文件 (*.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save the manifest</source>
        <translation>保存清单</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>重做</translation>
    </message>
    <message>
        <source>The YAML editor has its own undo (%1)</source>
        <translation>YAML 编辑器有自己的撤销（%1）</translation>
    </message>
    <message>
        <source>Undo: %1 (%2)</source>
        <translation>撤销：%1（%2）</translation>
    </message>
    <message>
        <source>Nothing to undo</source>
        <translation>没有可撤销的操作</translation>
    </message>
    <message>
        <source>The YAML editor has its own redo (%1)</source>
        <translation>YAML 编辑器有自己的重做（%1）</translation>
    </message>
    <message>
        <source>Redo: %1 (%2)</source>
        <translation>重做：%1（%2）</translation>
    </message>
    <message>
        <source>Nothing to redo</source>
        <translation>没有可重做的操作</translation>
    </message>
    <message>
        <source>Create quota from template...</source>
        <translation>从模板创建配额……</translation>
    </message>
    <message>
        <source>Namespace %1 has no ResourceQuota, so its pods may use any number of GPUs.</source>
        <translation>命名空间 %1 没有 ResourceQuota，因此其中的 Pod 可以使用任意数量的 GPU。</translation>
    </message>
    <message>
        <source>Boost this resource…</source>
        <translation>临时提高此资源…</translation>
    </message>
</context>
<context>
    <name>gq::QuotaTableModel</name>
    <message>
        <source>not counted</source>
        <translation>不计入</translation>
    </message>
    <message>
        <source>ignored</source>
        <translation>被忽略</translation>
    </message>
    <message>
        <source>Managed by %1: your change will be reverted on its next sync</source>
        <translation>由 %1 管理：您的更改将在其下次同步时被还原</translation>
    </message>
    <message>
        <source>The API server accepts %1 but quota never counts it: extended resources are limited in quota only as requests.%2. This entry limits nothing.</source>
        <translation>API 服务器接受 %1，但配额从不计算它：扩展资源在配额中只能以 requests.%2 的形式限制。此条目不限制任何内容。</translation>
    </message>
    <message>
        <source>%1 is managed by %2: your change will be reverted on its next sync</source>
        <translation>%1 由 %2 管理：您的更改将在其下次同步时被还原</translation>
    </message>
    <message>
        <source>%1 (was %2)</source>
        <translation>%1（原为 %2）</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>已移除</translation>
    </message>
    <message>
        <source>over</source>
        <translation>超出</translation>
    </message>
    <message>
        <source>The new limit is below current use (%1). Existing pods keep running, but new ones will be rejected until use falls below the limit.</source>
        <translation>新上限低于当前用量（%1）。现有 Pod 会继续运行，但在用量降到上限以下之前，新的 Pod 将被拒绝。</translation>
    </message>
    <message>
        <source>This resource will no longer be limited once applied</source>
        <translation>应用后将不再限制此资源</translation>
    </message>
    <message>
        <source>New resource, not yet applied</source>
        <translation>新资源，尚未应用</translation>
    </message>
    <message>
        <source>Changed from %1, not yet applied</source>
        <translation>已从 %1 修改，尚未应用</translation>
    </message>
    <message>
        <source>Double-click to edit the hard limit</source>
        <translation>双击以编辑硬性上限</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>资源</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>已用</translation>
    </message>
    <message>
        <source>Hard limit</source>
        <translation>硬性上限</translation>
    </message>
    <message>
        <source>Usage</source>
        <translation>使用率</translation>
    </message>
    <message>
        <source>Set %1 to %2</source>
        <translation>将 %1 设为 %2</translation>
    </message>
    <message>
        <source>Add %1</source>
        <translation>添加 %1</translation>
    </message>
    <message>
        <source>Remove %1</source>
        <translation>移除 %1</translation>
    </message>
    <message>
        <source>Revert all changes</source>
        <translation>撤回所有更改</translation>
    </message>
</context>
<context>
    <name>gq::QuotaWriter</name>
    <message>
        <source>Not connected to a cluster.</source>
        <translation>未连接到集群。</translation>
    </message>
    <message>
        <source>The name cannot change from &quot;%1&quot; to &quot;%2&quot;; create a new object instead.</source>
        <translation>名称不能从“%1”改为“%2”；请改为创建新对象。</translation>
    </message>
    <message>
        <source>The object names namespace &quot;%1&quot; but is being applied to &quot;%2&quot;.</source>
        <translation>该对象指定的命名空间是“%1”，但正被应用到“%2”。</translation>
    </message>
    <message>
        <source>changed on the server since your last apply (base %1, server %2, yours %3)</source>
        <translation>自你上次应用以来已在服务器上更改（基准 %1，服务器 %2，你的 %3）</translation>
    </message>
    <message>
        <source>%1 fields changed on the server since your last apply</source>
        <translation>自你上次应用以来，服务器上有 %1 个字段已更改</translation>
    </message>
</context>
<context>
    <name>gq::RankingModel</name>
    <message>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>near: %1</source>
        <translation>接近上限：%1</translation>
    </message>
    <message>
        <source>in grace: %1</source>
        <translation>宽限期内：%1</translation>
    </message>
    <message>
        <source>over: %1</source>
        <translation>已超出：%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <source>Budget</source>
        <translation>预算</translation>
    </message>
</context>
<context>
    <name>gq::SecretStore</name>
    <message>
        <source>No OS keychain is available (%1): secrets are kept in memory for this session only and must be entered again next time.</source>
        <translation>没有可用的系统密钥链（%1）：机密信息仅在本次会话中保存在内存里，下次需要重新输入。</translation>
    </message>
    <message>
        <source>no keychain service is running</source>
        <translation>没有正在运行的密钥链服务</translation>
    </message>
    <message>
        <source>not supported on this system</source>
        <translation>此系统不支持</translation>
    </message>
    <message>
        <source>the keychain service did not answer: %1</source>
        <translation>密钥链服务没有应答：%1</translation>
    </message>
    <message>
        <source>keychain: %1</source>
        <translation>密钥链：%1</translation>
    </message>
    <message>
        <source>no secret is stored for %1</source>
        <translation>没有为 %1 保存机密信息</translation>
    </message>
</context>
<context>
    <name>gq::StackedChart</name>
    <message>
        <source>W%1</source>
        <translation>第%1周</translation>
    </message>
    <message>
        <source>ISO week %1 of %2, from %3</source>
        <translation>%2 年第 %1 周（ISO），自 %3 起</translation>
    </message>
    <message>
        <source>cumulative</source>
        <translation>累计</translation>
    </message>
    <message>
        <source>budget %1 GPU-h</source>
        <translation>预算 %1 GPU 小时</translation>
    </message>
    <message>
        <source>d MMM</source>
        <comment>date format of a day bar</comment>
        <translation>M月d日</translation>
    </message>
    <message>
        <source>MMM yyyy</source>
        <comment>date format of a month bar</comment>
        <translation>yyyy年M月</translation>
    </message>
    <message>
        <source>MMMM yyyy</source>
        <comment>date format of a month title</comment>
        <translation>yyyy年M月</translation>
    </message>
    <message>
        <source>hour</source>
        <translation>小时</translation>
    </message>
    <message>
        <source>day</source>
        <translation>天</translation>
    </message>
    <message>
        <source>week</source>
        <translation>周</translation>
    </message>
    <message>
        <source>month</source>
        <translation>月</translation>
    </message>
    <message>
        <source>budget %1 GPU-h per %2</source>
        <translation>预算：每%2 %1 GPU 小时</translation>
    </message>
</context>
<context>
    <name>gq::StartPage</name>
    <message>
        <source>Welcome to GPU Quota Console</source>
        <translation>欢迎使用 GPU 配额控制台</translation>
    </message>
    <message>
        <source>The console works on a Kubernetes cluster through your kubeconfig. It needs:</source>
        <translation>控制台通过您的 kubeconfig 操作 Kubernetes 集群。它需要：</translation>
    </message>
    <message>
        <source>&lt;b&gt;A kubeconfig&lt;/b&gt; with a context for the cluster (the file &lt;tt&gt;kubectl&lt;/tt&gt; uses). Required.</source>
        <translation>&lt;b&gt;一个 kubeconfig&lt;/b&gt;，其中包含该集群的上下文（即 &lt;tt&gt;kubectl&lt;/tt&gt; 使用的文件）。必需。</translation>
    </message>
    <message>
        <source>&lt;b&gt;A usage database&lt;/b&gt; for budgets, GPU-hours and the audit trail: an embedded SQLite file is offered for each context, or the PostgreSQL your controller writes to.</source>
        <translation>&lt;b&gt;一个用量数据库&lt;/b&gt;，用于预算、GPU 时数和审计记录：可为每个上下文提供嵌入式 SQLite 文件，或使用控制器写入的 PostgreSQL。</translation>
    </message>
    <message>
        <source>&lt;b&gt;A metrics source&lt;/b&gt; for the live GPU view: Prometheus, or dcgm-exporter directly. Optional.</source>
        <translation>&lt;b&gt;一个指标来源&lt;/b&gt;，用于实时 GPU 视图：Prometheus，或直接使用 dcgm-exporter。可选。</translation>
    </message>
    <message>
        <source>&lt;b&gt;The gpuquota controller&lt;/b&gt; in the cluster records GPU-hours and enforces budgets. Optional for quotas and limits.</source>
        <translation>集群中的 &lt;b&gt;gpuquota 控制器&lt;/b&gt;记录 GPU 时数并执行预算。对配额和限制范围而言是可选的。</translation>
    </message>
    <message>
        <source>Open kubeconfig...</source>
        <translation>打开 kubeconfig...</translation>
    </message>
    <message>
        <source>Try the demo</source>
        <translation>试用演示</translation>
    </message>
    <message>
        <source>A local test cluster with made-up teams, started just for this window</source>
        <translation>一个带有虚构团队的本地测试集群，仅为此窗口启动</translation>
    </message>
    <message>
        <source>Setting up a cluster (controller, database, metrics): &lt;a href=&quot;%1&quot;&gt;the deployment guide&lt;/a&gt;.</source>
        <translation>设置集群（控制器、数据库、指标）：&lt;a href=&quot;%1&quot;&gt;部署指南&lt;/a&gt;。</translation>
    </message>
</context>
<context>
    <name>gq::TemplateDialog</name>
    <message>
        <source>Save as template</source>
        <translation>另存为模板</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Apply a template</source>
        <translation>应用模板</translation>
    </message>
    <message>
        <source>name for your template</source>
        <translation>你的模板名称</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Object</source>
        <translation>对象</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Preview first: every object is dry-run on the server before anything is written</source>
        <translation>请先预览：写入之前，每个对象都会在服务器上试运行</translation>
    </message>
    <message>
        <source>Template:</source>
        <translation>模板：</translation>
    </message>
    <message>
        <source>Namespaces:</source>
        <translation>命名空间：</translation>
    </message>
    <message>
        <source>%1 (built in)</source>
        <translation>%1（内置）</translation>
    </message>
    <message>
        <source>Could not save the template: %1</source>
        <translation>无法保存模板：%1</translation>
    </message>
    <message>
        <source>Saved template &quot;%1&quot; in %2</source>
        <translation>已将模板“%1”保存到 %2</translation>
    </message>
    <message>
        <source>Tick at least one namespace.</source>
        <translation>请至少勾选一个命名空间。</translation>
    </message>
    <message>
        <source>The template has errors; see the marks in the editor.</source>
        <translation>模板有错误；请查看编辑器中的标记。</translation>
    </message>
    <message>
        <source>Template: %1</source>
        <translation>模板：%1</translation>
    </message>
    <message>
        <source>create</source>
        <translation>创建</translation>
    </message>
    <message>
        <source>replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>checking...</source>
        <translation>检查中……</translation>
    </message>
    <message numerus="yes">
        <source>Dry run of %n object(s)...</source>
        <translation>
            <numerusform>正在试运行 %n 个对象……</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Apply to %n namespace(s)</source>
        <translation>
            <numerusform>应用到 %n 个命名空间</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Dry run passed for all %n object(s). Apply writes them.</source>
        <translation>
            <numerusform>全部 %n 个对象试运行通过。“应用”将写入它们。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 of %2 objects would fail; fix the template or the targets.</source>
        <translation>%2 个对象中有 %1 个会失败；请修正模板或目标。</translation>
    </message>
    <message>
        <source>Applied %1 of %2 objects.</source>
        <translation>已应用 %2 个对象中的 %1 个。</translation>
    </message>
    <message>
        <source>conflict: changed on the server since the preview; not overwritten</source>
        <translation>冲突：预览之后服务器上已变更；未覆盖</translation>
    </message>
    <message>
        <source>ok (dry run)</source>
        <translation>通过（试运行）</translation>
    </message>
    <message>
        <source>applied</source>
        <translation>已应用</translation>
    </message>
    <message>
        <source>from template &quot;%1&quot;</source>
        <translation>来自模板“%1”</translation>
    </message>
    <message>
        <source>not previewed; not written</source>
        <translation>未预览；未写入</translation>
    </message>
</context>
<context>
    <name>gq::UsageChart</name>
    <message numerus="yes">
        <source>%1 (%n subjects)</source>
        <translation>
            <numerusform>%1（%n 个对象）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1
%2: %3 %4</source>
        <translation>%1
%2：%3 %4</translation>
    </message>
    <message>
        <source>Could not write %1</source>
        <translation>无法写入 %1</translation>
    </message>
</context>
<context>
    <name>gq::UsageChartModel</name>
    <message>
        <source>User</source>
        <translation>用户</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>others</source>
        <translation>其他</translation>
    </message>
    <message>
        <source>GPU-hours</source>
        <translation>GPU 小时</translation>
    </message>
    <message>
        <source>GPU-h</source>
        <translation>GPU 小时</translation>
    </message>
</context>
<context>
    <name>gq::UsageChartPanel</name>
    <message>
        <source>Reading usage... %1 s</source>
        <translation>正在读取用量…… %1 秒</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Chart as PNG...</source>
        <translation>图表导出为 PNG……</translation>
    </message>
    <message>
        <source>Chart as SVG...</source>
        <translation>图表导出为 SVG……</translation>
    </message>
    <message>
        <source>Data as CSV (every subject)...</source>
        <translation>数据导出为 CSV（全部对象）……</translation>
    </message>
    <message>
        <source>Could not read usage: %1</source>
        <translation>无法读取用量：%1</translation>
    </message>
    <message>
        <source>No usage database is open.</source>
        <translation>没有打开用量数据库。</translation>
    </message>
    <message>
        <source>No GPU usage recorded in this range.</source>
        <translation>此范围内没有记录到 GPU 用量。</translation>
    </message>
    <message numerus="yes">
        <source>%1, %2 (%n subjects)</source>
        <translation>
            <numerusform>%1，%2（%n 个对象）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
</context>
<context>
    <name>gq::UsageRangeBar</name>
    <message>
        <source>Today</source>
        <translation>今天</translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation>最近 7 天</translation>
    </message>
    <message>
        <source>This month</source>
        <translation>本月</translation>
    </message>
    <message>
        <source>Last month</source>
        <translation>上月</translation>
    </message>
    <message>
        <source>Last 90 days</source>
        <translation>最近 90 天</translation>
    </message>
    <message>
        <source>Custom range</source>
        <translation>自定义范围</translation>
    </message>
    <message>
        <source>per hour</source>
        <translation>按小时</translation>
    </message>
    <message>
        <source>per day</source>
        <translation>按天</translation>
    </message>
    <message>
        <source>per ISO week</source>
        <translation>按 ISO 周</translation>
    </message>
    <message>
        <source>per month</source>
        <translation>按月</translation>
    </message>
    <message>
        <source>The length of one bar</source>
        <translation>每根柱子代表的时长</translation>
    </message>
    <message>
        <source>Time zone of the buckets (IANA name): where a day, week or month starts</source>
        <translation>时段所用的时区（IANA 名称）：决定一天、一周或一个月从何时开始</translation>
    </message>
    <message>
        <source>Range:</source>
        <translation>范围：</translation>
    </message>
    <message>
        <source>Buckets in:</source>
        <translation>时段时区：</translation>
    </message>
    <message>
        <source>unknown time zone &quot;%1&quot;</source>
        <translation>未知时区“%1”</translation>
    </message>
    <message>
        <source>UTC%1%2:%3</source>
        <translation>UTC%1%2:%3</translation>
    </message>
</context>
<context>
    <name>gq::UsageService</name>
    <message>
        <source>The usage database is not open; the change was applied but not recorded in the audit log.</source>
        <translation>用量数据库未打开；变更已应用，但未记入审计日志。</translation>
    </message>
    <message>
        <source>The usage database is not open; the budget was not saved.</source>
        <translation>用量数据库未打开；预算未保存。</translation>
    </message>
    <message>
        <source>The usage database is not open.</source>
        <translation>用量数据库未打开。</translation>
    </message>
</context>
<context>
    <name>gq::UserUsageDialog</name>
    <message>
        <source>Usage of %1</source>
        <translation>%1 的用量</translation>
    </message>
    <message>
        <source>GPU-hours of %1 by namespace</source>
        <translation>%1 按命名空间的 GPU 小时</translation>
    </message>
    <message>
        <source>%1 has no GPU-hour budget.</source>
        <translation>%1 没有 GPU 小时预算。</translation>
    </message>
    <message>
        <source>Budget of %1: %2</source>
        <translation>%1 的预算：%2</translation>
    </message>
</context>
<context>
    <name>gq::YamlEditor</name>
    <message>
        <source>unresolved merge conflict: keep your lines or the server&apos;s, then delete the &lt;&lt;&lt;&lt;&lt;&lt;&lt;, ======= and &gt;&gt;&gt;&gt;&gt;&gt;&gt; markers</source>
        <translation>未解决的合并冲突：保留你的行或服务器的行，然后删除 &lt;&lt;&lt;&lt;&lt;&lt;&lt;、======= 和 &gt;&gt;&gt;&gt;&gt;&gt;&gt; 标记</translation>
    </message>
    <message>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)……</translation>
    </message>
    <message>
        <source>&amp;Canonicalize Quantities</source>
        <translation>规范化数量(&amp;C)</translation>
    </message>
    <message>
        <source>Rewrite every quantity the way the API server prints it (1000m → 1, 1.5Gi → 1536Mi)</source>
        <translation>按 API 服务器的输出格式重写所有数量（1000m → 1，1.5Gi → 1536Mi）</translation>
    </message>
    <message>
        <source>no object: expected a ResourceQuota or LimitRange manifest</source>
        <translation>没有对象：需要 ResourceQuota 或 LimitRange 清单</translation>
    </message>
    <message>
        <source>The editor is read-only.</source>
        <translation>编辑器为只读。</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>%1 is too large for a manifest (%2 bytes)</source>
        <translation>%1 作为清单文件过大（%2 字节）</translation>
    </message>
    <message>
        <source>%1 is not UTF-8 text</source>
        <translation>%1 不是 UTF-8 文本</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Line %1, column %2</source>
        <translation>第 %1 行，第 %2 列</translation>
    </message>
    <message>
        <source>Line %1</source>
        <translation>第 %1 行</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>No problems</source>
        <translation>没有问题</translation>
    </message>
    <message>
        <source>1 problem</source>
        <translation>1 个问题</translation>
    </message>
    <message>
        <source>%1 problems</source>
        <translation>%1 个问题</translation>
    </message>
    <message>
        <source>Click to go there; click again for the next problem.</source>
        <translation>点击跳转到该处；再次点击跳到下一个问题。</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Demo mode: a local test cluster with eight made-up GPU teams, a GPU metrics exporter and the gpuquota controller, all started just for this window and removed when you close it; nothing here touches a real cluster. The controller records pods you start yourself: kubectl --kubeconfig %1 run ... To use a real cluster, start the console without --demo (or choose File &gt; Open kubeconfig...) and set its usage database, metrics and controller under Connections.</source>
        <translation>演示模式：一个本地测试集群，其中有八个虚构的 GPU 团队、一个 GPU 指标导出器和 gpuquota 控制器，全部只为此窗口启动，关闭窗口时一并移除；这里的任何操作都不会触及真实集群。控制器会记录你自己启动的 Pod：kubectl --kubeconfig %1 run ... 要使用真实集群，请不带 --demo 启动控制台（或选择“文件 &gt; 打开 kubeconfig...”），并在“连接”中设置其用量数据库、指标和控制器。</translation>
    </message>
</context>
<context>
    <name>gq::FitMemoryBar</name>
    <message>
        <source>weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>activations</source>
        <translation>激活</translation>
    </message>
    <message>
        <source>overhead</source>
        <translation>开销</translation>
    </message>
</context>
<context>
    <name>gq::FitPlanDialog</name>
    <message>
        <source>Plan a fine-tune</source>
        <translation>规划微调</translation>
    </message>
    <message>
        <source>By parameter count</source>
        <translation>按参数量</translation>
    </message>
    <message>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Auto (ZeRO-3 on more than one GPU)</source>
        <translation>自动（多于一块 GPU 时用 ZeRO-3）</translation>
    </message>
    <message>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash Attention</translation>
    </message>
    <message>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <source>namespace (optional)</source>
        <translation>命名空间（可选）</translation>
    </message>
    <message>
        <source>user (for the budget)</source>
        <translation>用户（用于预算）</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>参数量：</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Precision:</source>
        <translation>精度：</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>ZeRO stage:</source>
        <translation>ZeRO 阶段：</translation>
    </message>
    <message>
        <source>GPUs:</source>
        <translation>GPU 数：</translation>
    </message>
    <message>
        <source>GPU memory:</source>
        <translation>GPU 显存：</translation>
    </message>
    <message>
        <source>Sequence length:</source>
        <translation>序列长度：</translation>
    </message>
    <message>
        <source>Micro-batch:</source>
        <translation>微批大小：</translation>
    </message>
    <message>
        <source>LoRA rank:</source>
        <translation>LoRA 秩：</translation>
    </message>
    <message>
        <source>Run length:</source>
        <translation>运行时长：</translation>
    </message>
    <message>
        <source>Namespace:</source>
        <translation>命名空间：</translation>
    </message>
    <message>
        <source>User:</source>
        <translation>用户：</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>An estimate within about 15–20 %: it does not count the data loader, the evaluation pass or other processes on the GPU.</source>
        <translation>估算误差约 15–20%：未计入数据加载器、评估过程以及 GPU 上的其他进程。</translation>
    </message>
    <message>
        <source>ms-swift flags (swift sft):</source>
        <translation>ms-swift 参数（swift sft）：</translation>
    </message>
    <message>
        <source>Reading the quota of %1 and the GPU nodes…</source>
        <translation>正在读取 %1 的配额和 GPU 节点…</translation>
    </message>
    <message>
        <source>Could not read the cluster: %1</source>
        <translation>无法读取集群：%1</translation>
    </message>
    <message>
        <source>no GPU quota</source>
        <translation>无 GPU 配额</translation>
    </message>
    <message>
        <source>%1: %2 GPUs free in the quota; %3, %4 each</source>
        <translation>%1：配额中空闲 GPU %2 块；%3，每块 %4</translation>
    </message>
    <message>
        <source>%1: %2 GPUs free in the quota; GPU memory unknown (%3)</source>
        <translation>%1：配额中空闲 GPU %2 块；GPU 显存未知（%3）</translation>
    </message>
    <message>
        <source>Full fine-tuning</source>
        <translation>全参数微调</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA</source>
        <translation>QLoRA</translation>
    </message>
    <message>
        <source>%1 — no GPU left to run on</source>
        <translation>%1 — 没有剩余 GPU 可用</translation>
    </message>
    <message>
        <source>%1, ZeRO-%2</source>
        <translation>%1，ZeRO-%2</translation>
    </message>
    <message>
        <source>✔ %1 — fits: %2 per GPU ≤ %3 (GPUs: %4)</source>
        <translation>✔ %1 — 可行：每块 GPU %2 ≤ %3（GPU：%4）</translation>
    </message>
    <message>
        <source>✘ %1 — does not fit: %2 per GPU &gt; %3 (GPUs: %4)</source>
        <translation>✘ %1 — 放不下：每块 GPU %2 &gt; %3（GPU：%4）</translation>
    </message>
    <message>
        <source>Enter a parameter count such as 7B, 6.74e9 or 7000000000.</source>
        <translation>请输入参数量，例如 7B、6.74e9 或 7000000000。</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs: %3 per GPU</source>
        <translation>%1，%2 块 GPU：每块 %3</translation>
    </message>
    <message>
        <source>Nothing fits on these GPUs; the closest is %1 at %2 per GPU.</source>
        <translation>这些 GPU 上都放不下；最接近的是 %1，每块 GPU %2。</translation>
    </message>
    <message>
        <source>%1 GPU-h (%2 GPUs × %3 h)</source>
        <translation>%1 GPU 小时（%2 块 GPU × %3 小时）</translation>
    </message>
    <message>
        <source>Budget: enter a user to check the GPU-hours against their budget.</source>
        <translation>预算：输入用户以对照其预算检查 GPU 小时。</translation>
    </message>
    <message>
        <source>Budget: checking…</source>
        <translation>预算：检查中…</translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation>预算：%1</translation>
    </message>
</context>
<context>
    <name>BoostRequestForm</name>
    <message>
        <source>pending</source>
        <translation>待审批</translation>
    </message>
    <message>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <source>withdrawn</source>
        <translation>已撤回</translation>
    </message>
    <message>
        <source>Request #%1 sent: an admin approves or denies it.</source>
        <translation>申请 #%1 已提交：由管理员批准或拒绝。</translation>
    </message>
    <message>
        <source>The request was not sent: %1</source>
        <translation>申请未提交：%1</translation>
    </message>
    <message>
        <source>Ask for more GPU-hours</source>
        <translation>申请更多 GPU 时长</translation>
    </message>
    <message>
        <source>#%1: %2 GPU-h until %3 (%4)</source>
        <translation>#%1：%2 GPU 小时，至 %3（%4）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Extra GPU-hours</source>
        <translation>额外 GPU 小时</translation>
    </message>
    <message>
        <source>for</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>2 hours</source>
        <translation>2 小时</translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation>6 小时</translation>
    </message>
    <message>
        <source>1 day</source>
        <translation>1 天</translation>
    </message>
    <message>
        <source>3 days</source>
        <translation>3 天</translation>
    </message>
    <message>
        <source>7 days</source>
        <translation>7 天</translation>
    </message>
    <message>
        <source>Why (at least 10 characters)</source>
        <translation>原因（至少 10 个字符）</translation>
    </message>
    <message>
        <source>e.g. paper deadline on Friday, final runs</source>
        <translation>例如：周五论文截稿，最后几轮实验</translation>
    </message>
    <message>
        <source>Send request</source>
        <translation>提交申请</translation>
    </message>
    <message>
        <source>The decision shows here.</source>
        <translation>审批结果会显示在这里。</translation>
    </message>
</context>
<context>
    <name>FitAdvisorForm</name>
    <message>
        <source>Will this fine-tune fit?</source>
        <translation>这次微调放得下吗？</translation>
    </message>
    <message>
        <source>An estimate within about 15–20 %: it does not count the data loader, the evaluation pass or other processes on the GPU.</source>
        <translation>估算误差约 15–20%：未计入数据加载器、评估过程以及 GPU 上的其他进程。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>or parameters</source>
        <translation>或参数量</translation>
    </message>
    <message>
        <source>Method</source>
        <translation>方法</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>GPU memory</source>
        <translation>GPU 显存</translation>
    </message>
    <message>
        <source>Sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <source>Micro-batch</source>
        <translation>微批大小</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>Hours</source>
        <translation>小时数</translation>
    </message>
    <message>
        <source>Gradient checkpointing</source>
        <translation>梯度检查点</translation>
    </message>
    <message>
        <source>Flash attention</source>
        <translation>Flash Attention</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>gpu_memory: give the memory of one GPU (e.g. 80G)</source>
        <translation>gpu_memory：请给出单块 GPU 的显存（例如 80G）</translation>
    </message>
    <message>
        <source>%1 on %2 GPUs: %3 per GPU</source>
        <translation>%1，%2 块 GPU：每块 %3</translation>
    </message>
    <message>
        <source>Nothing fits on %1 GPUs of %2.</source>
        <translation>在 %1 块 %2 的 GPU 上都放不下。</translation>
    </message>
    <message>
        <source>Per GPU: weights %1, gradients %2, optimizer %3, activations %4, overhead %5</source>
        <translation>每块 GPU：权重 %1，梯度 %2，优化器 %3，激活 %4，开销 %5</translation>
    </message>
    <message>
        <source>%1 GPU-h (%2 GPUs × %3 h)</source>
        <translation>%1 GPU 小时（%2 块 GPU × %3 小时）</translation>
    </message>
    <message>
        <source>Budget: %1</source>
        <translation>预算：%1</translation>
    </message>
    <message>
        <source>ms-swift flags:</source>
        <translation>ms-swift 参数：</translation>
    </message>
</context>
<context>
    <name>gq::QueueTreeModel</name>
    <message>
        <source>Cohort / ClusterQueue / flavor</source>
        <translation>队列组 / ClusterQueue / 规格</translation>
    </message>
    <message>
        <source>Nominal</source>
        <translation>名义配额</translation>
    </message>
    <message>
        <source>Borrowing limit</source>
        <translation>借用上限</translation>
    </message>
    <message>
        <source>Lending limit</source>
        <translation>出借上限</translation>
    </message>
    <message>
        <source>Reserved</source>
        <translation>已预留</translation>
    </message>
    <message>
        <source>Borrowed</source>
        <translation>已借入</translation>
    </message>
    <message>
        <source>Lent</source>
        <translation>已借出</translation>
    </message>
    <message>
        <source>Pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>%1 (stopped)</source>
        <translation>%1（已停止）</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>LocalQueue %1 in namespace %2</source>
        <translation>命名空间 %2 中的 LocalQueue %1</translation>
    </message>
    <message>
        <source>Cohort %1 (no Cohort object)</source>
        <translation>队列组 %1（无 Cohort 对象）</translation>
    </message>
    <message>
        <source>Cohort %1</source>
        <translation>队列组 %1</translation>
    </message>
</context>
<context>
    <name>gq::WorkloadListModel</name>
    <message>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <source>Workload</source>
        <translation>工作负载</translation>
    </message>
    <message>
        <source>ClusterQueue</source>
        <translation>ClusterQueue</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Position</source>
        <translation>排位</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <source>Flavor</source>
        <translation>规格</translation>
    </message>
    <message>
        <source>Age</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 分钟</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 小时</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 天</translation>
    </message>
    <message>
        <source>pending</source>
        <translation>等待中</translation>
    </message>
    <message>
        <source>admitted</source>
        <translation>已准入</translation>
    </message>
    <message>
        <source>quota reserved</source>
        <translation>已预留配额</translation>
    </message>
</context>
<context>
    <name>gq::QueuesPage</name>
    <message>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <source>Workloads: pending in the order Kueue tries them, then admitted</source>
        <translation>工作负载：先按 Kueue 尝试的顺序列出等待中的，再列出已准入的</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>未连接。</translation>
    </message>
    <message>
        <source>Kueue is not installed on this cluster (no kueue.x-k8s.io API).</source>
        <translation>此集群未安装 Kueue（没有 kueue.x-k8s.io API）。</translation>
    </message>
    <message>
        <source>Cannot read Kueue&apos;s queues: %1</source>
        <translation>无法读取 Kueue 的队列：%1</translation>
    </message>
    <message numerus="yes">
        <source>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n · read-only</source>
        <translation>
            <numerusform>Kueue API kueue.x-k8s.io/%1 · ClusterQueue：%n 个 · 只读</numerusform>
        </translation>
    </message>
    <message>
        <source>Reading Kueue&apos;s queues…</source>
        <translation>正在读取 Kueue 的队列…</translation>
    </message>
    <message>
        <source> · refreshing…</source>
        <translation> · 正在刷新…</translation>
    </message>
    <message>
        <source>Checking whether you may edit Kueue&apos;s queues…</source>
        <translation>正在检查你是否可以编辑 Kueue 的队列…</translation>
    </message>
    <message>
        <source>Read-only: you may not update ClusterQueues (SelfSubjectAccessReview denied update clusterqueues.kueue.x-k8s.io).</source>
        <translation>只读：你无权更新 ClusterQueue（SelfSubjectAccessReview 拒绝了 update clusterqueues.kueue.x-k8s.io）。</translation>
    </message>
    <message>
        <source>Read-only: you may not update ClusterQueues (SelfSubjectAccessReview denied update clusterqueues.kueue.x-k8s.io: %1).</source>
        <translation>只读：你无权更新 ClusterQueue（SelfSubjectAccessReview 拒绝了 update clusterqueues.kueue.x-k8s.io：%1）。</translation>
    </message>
    <message>
        <source>Edit the selected flavor&apos;s GPU nominal quota, borrowing or lending limit (or double-click a number)</source>
        <translation>编辑所选规格的 GPU 名义配额、借用上限或借出上限（也可双击数字）</translation>
    </message>
    <message>
        <source>Edit the selected Cohort, ClusterQueue, ResourceFlavor or LocalQueue as YAML</source>
        <translation>以 YAML 编辑所选的 Cohort、ClusterQueue、ResourceFlavor 或 LocalQueue</translation>
    </message>
    <message>
        <source>Edit GPU quota…</source>
        <translation>编辑 GPU 配额…</translation>
    </message>
    <message>
        <source>Edit YAML…</source>
        <translation>编辑 YAML…</translation>
    </message>
    <message numerus="yes">
        <source>Kueue API kueue.x-k8s.io/%1 · ClusterQueues: %n</source>
        <translation>
            <numerusform>Kueue API kueue.x-k8s.io/%1 · ClusterQueue：%n 个</numerusform>
        </translation>
    </message>
    <message>
        <source>Checking whether you may edit the LocalQueues of %1…</source>
        <translation>正在检查你是否可以编辑 %1 的 LocalQueue…</translation>
    </message>
    <message>
        <source>Read-only: you may not update LocalQueues in %1 (SelfSubjectAccessReview denied update localqueues.kueue.x-k8s.io there).</source>
        <translation>只读：你不能更新 %1 中的 LocalQueue（SelfSubjectAccessReview 拒绝了该命名空间中的 update localqueues.kueue.x-k8s.io）。</translation>
    </message>
    <message>
        <source>Read-only: you may not update LocalQueues in %1 (SelfSubjectAccessReview denied update localqueues.kueue.x-k8s.io there: %2).</source>
        <translation>只读：你不能更新 %1 中的 LocalQueue（SelfSubjectAccessReview 拒绝了该命名空间中的 update localqueues.kueue.x-k8s.io：%2）。</translation>
    </message>
</context>
<context>
    <name>gq::QueueQuotaDialog</name>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation>未连接到集群。</translation>
    </message>
    <message>
        <source>Cannot read the ClusterQueue: %1</source>
        <translation>无法读取 ClusterQueue：%1</translation>
    </message>
    <message>
        <source>not set (no limit)</source>
        <translation>未设置（无限制）</translation>
    </message>
    <message>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation>应用失败：%1</translation>
    </message>
    <message>
        <source>Apply cancelled; nothing was written.</source>
        <translation>已取消应用；未写入任何内容。</translation>
    </message>
    <message>
        <source>Applied ClusterQueue %1</source>
        <translation>已应用 ClusterQueue %1</translation>
    </message>
    <message>
        <source>The ClusterQueue changed on the server; it is shown as it is now.</source>
        <translation>该 ClusterQueue 已在服务器上被修改；现在显示的是它的当前状态。</translation>
    </message>
    <message>
        <source>Edit GPU quota</source>
        <translation>编辑 GPU 配额</translation>
    </message>
    <message>
        <source>ClusterQueue %1 · flavor %2 · %3</source>
        <translation>ClusterQueue %1 · 规格 %2 · %3</translation>
    </message>
    <message>
        <source>Nominal quota (nominalQuota)</source>
        <translation>名义配额（nominalQuota）</translation>
    </message>
    <message>
        <source>Borrowing limit (borrowingLimit)</source>
        <translation>借用上限（borrowingLimit）</translation>
    </message>
    <message>
        <source>Lending limit (lendingLimit)</source>
        <translation>借出上限（lendingLimit）</translation>
    </message>
    <message>
        <source>No limit (remove the field)</source>
        <translation>无限制（删除该字段）</translation>
    </message>
    <message>
        <source>Review and apply…</source>
        <translation>检查并应用…</translation>
    </message>
    <message>
        <source> GPUs</source>
        <translation> 个 GPU</translation>
    </message>
    <message>
        <source>Field:</source>
        <translation>字段：</translation>
    </message>
    <message>
        <source>On the server now:</source>
        <translation>服务器上的当前值：</translation>
    </message>
    <message>
        <source>New value:</source>
        <translation>新值：</translation>
    </message>
</context>
<context>
    <name>gq::QueueYamlDialog</name>
    <message>
        <source>Edit %1 %2</source>
        <translation>编辑 %1 %2</translation>
    </message>
    <message>
        <source>%1 %2/%3</source>
        <translation>%1 %2/%3</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
    <message>
        <source>Apply…</source>
        <translation>应用…</translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation>正在读取 %1…</translation>
    </message>
    <message>
        <source>Not connected to a cluster.</source>
        <translation>未连接到集群。</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <source>Line %1: %2: %3</source>
        <translation>第 %1 行：%2：%3</translation>
    </message>
    <message>
        <source>Apply failed: %1</source>
        <translation>应用失败：%1</translation>
    </message>
    <message>
        <source> at line %1</source>
        <translation>（第 %1 行）</translation>
    </message>
    <message>
        <source>Apply cancelled; your edit is kept.</source>
        <translation>已取消应用；你的修改已保留。</translation>
    </message>
    <message>
        <source>Applied %1 %2</source>
        <translation>已应用 %1 %2</translation>
    </message>
    <message>
        <source>The text now holds the resolution; Apply writes it.</source>
        <translation>文本现在是冲突的解决结果；点击“应用”写入。</translation>
    </message>
    <message>
        <source>The object changed on the server; your edit is kept.</source>
        <translation>该对象已在服务器上被修改；你的修改已保留。</translation>
    </message>
</context>
<context>
    <name>gq::QueueBoostTarget</name>
    <message>
        <source>nominalQuota</source>
        <translation>nominalQuota（名义配额）</translation>
    </message>
    <message>
        <source>borrowingLimit</source>
        <translation>borrowingLimit（借用上限）</translation>
    </message>
    <message>
        <source>nominalQuota: the queue&apos;s own GPUs; borrowingLimit: how many more it may borrow from its cohort</source>
        <translation>nominalQuota：队列自己的 GPU；borrowingLimit：它最多还能从所属 cohort 借用多少</translation>
    </message>
    <message>
        <source>ClusterQueue:</source>
        <translation>ClusterQueue：</translation>
    </message>
    <message>
        <source>Flavor:</source>
        <translation>规格（Flavor）：</translation>
    </message>
    <message>
        <source>Resource:</source>
        <translation>资源：</translation>
    </message>
    <message>
        <source>Field:</source>
        <translation>字段：</translation>
    </message>
    <message>
        <source>No cluster connection to read Kueue&apos;s ClusterQueues from.</source>
        <translation>没有可读取 Kueue ClusterQueue 的集群连接。</translation>
    </message>
    <message>
        <source>Reading Kueue&apos;s ClusterQueues…</source>
        <translation>正在读取 Kueue 的 ClusterQueue…</translation>
    </message>
    <message>
        <source>Cannot read Kueue&apos;s ClusterQueues: %1</source>
        <translation>无法读取 Kueue 的 ClusterQueue：%1</translation>
    </message>
    <message>
        <source>The cluster has no Kueue ClusterQueue.</source>
        <translation>该集群没有 Kueue ClusterQueue。</translation>
    </message>
</context>
</TS>

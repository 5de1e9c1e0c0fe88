<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
        <source>The name cannot change from &quot;%1&quot; to &quot;%2&quot;; create a new object instead.</source>
        <translation>名称不能从“%1”改为“%2”；请改为创建新对象。</translation>
    </message>
    <message>
        <source>The object names namespace &quot;%1&quot; but is being applied to &quot;%2&quot;.</source>
        <translation>该对象指定的命名空间是“%1”，但正被应用到“%2”。</translation>
    </message>
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
    <name>gq::MainWindow</name>
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
        <source>Cannot read the kubeconfig: %1</source>
        <translation>无法读取 kubeconfig：%1</translation>
    </message>
    <message>
        <source>GPU Quota Console — demo</source>
        <translation>GPU 配额控制台 — 演示</translation>
    </message>
    <message>
        <source>Forbidden: %1</source>
        <translation>禁止访问：%1</translation>
    </message>
    <message>
        <source>Not authorized: the credentials of this context were rejected (%1)</source>
        <translation>未授权：此上下文的凭据被拒绝（%1）</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
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
        <source>Start with --kubeconfig FILE --context NAME, or try --demo for a local demo cluster.</source>
        <translation>请使用 --kubeconfig 文件 --context 名称 启动，或使用 --demo 试用本地演示集群。</translation>
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
        <source>The cluster answered with an error: %1. Retrying automatically.</source>
        <translation>集群返回错误：%1。正在自动重试。</translation>
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
        <source>%1 (not in the kubeconfig)</source>
        <translation>%1（不在 kubeconfig 中）</translation>
    </message>
    <message>
        <source>The context &quot;%1&quot; is no longer in the kubeconfig. The console keeps its current connection; choose another context to switch.</source>
        <translation>上下文“%1”已不在 kubeconfig 中。控制台保持当前连接；请选择其他上下文进行切换。</translation>
    </message>
    <message>
        <source>The kubeconfig changed but cannot be used (%1). The console keeps its current connection and reads the file again when it changes.</source>
        <translation>kubeconfig 已变更但无法使用（%1）。控制台保持当前连接，并会在文件再次变更时重新读取。</translation>
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
</context>
<context>
    <name>gq::NamespacePanel</name>
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
    <name>gq::QuotaPage</name>
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
</context>
<context>
    <name>gq::QuotaTableModel</name>
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
</context>
<context>
    <name>gq::UsageDatabase</name>
    <message>
        <source>The usage database is not open; the change was applied but not recorded in the audit log.</source>
        <translation>用量数据库未打开；变更已应用，但未记入审计日志。</translation>
    </message>
    <message>
        <source>The usage database is not open; the budget was not saved.</source>
        <translation>用量数据库未打开；预算未保存。</translation>
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
        <source>Demo mode: a local test cluster with made-up teams, started just for this window. Nothing you change here touches a real cluster; it is all removed when you close the window.</source>
        <translation>演示模式：为此窗口专门启动的本地测试集群，其中的团队均为虚构。你在这里所做的任何更改都不会触及真实集群；关闭窗口后一切都会被清除。</translation>
    </message>
</context>
</TS>

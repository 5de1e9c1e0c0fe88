// The extension's words in English and Simplified Chinese. The battery lines are the
// self-service page's (services/selfservicepage.cpp, translations/gpuquota_zh_CN.ts), so
// the panel says what the page says.

export type Lang = 'en' | 'zh_CN';

const zh: Record<string, string> = {
  'GPU quota': 'GPU 配额',
  'You': '您',
  'Namespace %1': '命名空间 %1',
  '%1 GPU-h left of %2 today': '今日剩余 %1 / %2 GPU 小时',
  '%1 GPU-h left of %2 this week': '本周剩余 %1 / %2 GPU 小时',
  '%1 GPU-h left of %2 this month': '本月剩余 %1 / %2 GPU 小时',
  '%1 GPU-h over %2 today, in grace': '今日超出 %2 GPU 小时的限额 %1，处于宽限期',
  '%1 GPU-h over %2 this week, in grace': '本周超出 %2 GPU 小时的限额 %1，处于宽限期',
  '%1 GPU-h over %2 this month, in grace': '本月超出 %2 GPU 小时的限额 %1，处于宽限期',
  'Spent: %1 of %2 GPU-h used today': '已用完：今日已用 %1 / %2 GPU 小时',
  'Spent: %1 of %2 GPU-h used this week': '已用完：本周已用 %1 / %2 GPU 小时',
  'Spent: %1 of %2 GPU-h used this month': '已用完：本月已用 %1 / %2 GPU 小时',
  'No budget: %1 GPU-h used today': '没有预算：今日已用 %1 GPU 小时',
  'Grace ends at %1: then new GPU jobs are refused.': '宽限期于 %1 结束，之后新的 GPU 任务将被拒绝。',
  'Over the limit: new GPU jobs are refused until %1.': '已超出限额：%1 之前新的 GPU 任务将被拒绝。',
  'Used %1 GPU-h, limit %2 GPU-h (boosts included)': '已用 %1 GPU 小时，限额 %2 GPU 小时（含临时额度）',
  'Less than 20 % of your GPU-hours are left (%1 of %2). Check your training\'s efficiency to avoid being stopped midway.':
    'GPU 时长剩余不足 20 %（剩余 %1 / %2 小时）。建议检查训练效率，避免中途被终止。',
  'GPU quota unavailable': 'GPU 配额不可用',
  'GPU quota unavailable: %1': 'GPU 配额不可用：%1',
  'Loading…': '加载中…',
  'Updated %1': '更新于 %1',
  'tomorrow %1': '明天 %1',
  // A newcomer's allowance (the page's and the console's "newcomer allowance until %1").
  'No limit: %1 GPU-h used today': '不限：今日已用 %1 GPU 小时',
  'No limit: %1 GPU-h used this week': '不限：本周已用 %1 GPU 小时',
  'No limit: %1 GPU-h used this month': '不限：本月已用 %1 GPU 小时',
  'newcomer: unlimited until %1': '新人额度：不限，至 %1',
  'newcomer: x%1 until %2': '新人额度：×%1，至 %2',
  'newcomer allowance until %1': '新人额度至 %1',
  'Used %1 GPU-h, no limit (newcomer allowance)': '已用 %1 GPU 小时，不限（新人额度）',
  // Boost requests (the page's words: services/selfservice/boostrequestform.cpp).
  'Request a boost': '申请临时提额',
  'Extra GPU-hours': '额外 GPU 小时',
  'For': '时长',
  'Why': '原因',
  'Why (at least 10 characters)': '原因（至少 10 个字符）',
  'e.g. paper deadline on Friday, final runs': '例如：周五论文截稿，最后几轮实验',
  '2 hours': '2 小时',
  '6 hours': '6 小时',
  '1 day': '1 天',
  '3 days': '3 天',
  '7 days': '7 天',
  'Send request': '提交申请',
  'Request #%1 sent: an admin approves or denies it.': '申请 #%1 已提交：由管理员批准或拒绝。',
  'The request was not sent: %1': '申请未提交：%1',
  '%1: %2': '%1：%2',
  'a note of at least 10 characters is required (why this boost?)': '需要至少 10 个字符的说明（为什么需要提额？）',
  'the extra GPU-hours must be a positive number': '额外 GPU 小时必须是正数',
  'a number of extra GPU-hours is required': '请填写额外 GPU 小时数',
  'Your requests': '我的申请',
  'Your requests are unavailable': '无法获取我的申请',
  'No requests yet.': '尚无申请。',
  '#%1: %2 GPU-h until %3': '#%1：%2 GPU 小时，至 %3',
  'pending': '待审批',
  'approved': '已批准',
  'denied': '已拒绝',
  'expired': '已过期',
  'withdrawn': '已撤回',
  'Withdraw': '撤回',
  'Why withdraw (at least 10 characters)': '撤回原因（至少 10 个字符）',
  'Not withdrawn: %1': '未撤回：%1'
};

// The user's language: JupyterLab's language pack when one other than the default
// English is chosen, else the first of the browser's languages that we speak.
export function pickLanguage(jupyterLanguage: string | undefined, browser: readonly string[]): Lang {
  const lab = (jupyterLanguage ?? '').toLowerCase();
  if (lab.startsWith('zh')) {
    return 'zh_CN';
  }
  for (const tag of browser.map(s => s.toLowerCase())) {
    if (tag.startsWith('zh')) {
      return 'zh_CN';
    }
    if (tag.startsWith('en')) {
      return 'en';
    }
  }
  return 'en';
}

export class Words {
  constructor(readonly lang: Lang) {}

  t(source: string, ...args: string[]): string {
    let s = this.lang === 'zh_CN' ? zh[source] ?? source : source;
    args.forEach((a, i) => {
      s = s.split('%' + (i + 1)).join(a);
    });
    return s;
  }
}

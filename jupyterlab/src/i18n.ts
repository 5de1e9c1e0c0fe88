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
  'tomorrow %1': '明天 %1'
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

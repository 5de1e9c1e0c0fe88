// The battery of the self-service page (services/selfservicepage.cpp) as DOM: the line
// coloured by state, a bar, the grace end when over; a failure as a grey line with the
// reason on hover.
import { IPart, IQuotaStatus } from './model';
import { Words } from './i18n';

// As SelfServicePage::shortHours: one decimal (two below 1), trailing zeros dropped.
export function shortHours(h: number): string {
  let s = h.toFixed(Math.abs(h) < 1 && h !== 0 ? 2 : 1);
  if (s.includes('.')) {
    s = s.replace(/0+$/, '').replace(/\.$/, '');
  }
  return s === '-0' ? '0' : s;
}

export function batteryLine(s: IQuotaStatus, w: Words): string {
  const per = s.period === 'week' ? 'this week' : s.period === 'month' ? 'this month' : 'today';
  if (unlimited(s)) {
    // The plain limit does not hold: no remainder to show, only what was used.
    return w.t(`No limit: %1 GPU-h used ${per}`, shortHours(s.used));
  }
  if (s.state === 'none') {
    return w.t('No budget: %1 GPU-h used today', shortHours(s.used));
  }
  if (s.state === 'ok' || s.state === 'near') {
    return w.t(`%1 GPU-h left of %2 ${per}`, shortHours(s.remaining), shortHours(s.limit));
  }
  if (s.state === 'grace') {
    return w.t(`%1 GPU-h over %2 ${per}, in grace`, shortHours(-s.remaining), shortHours(s.limit));
  }
  return w.t(`Spent: %1 of %2 GPU-h used ${per}`, shortHours(s.used), shortHours(s.limit));
}

// An unlimited newcomer allowance in force: the limit and remainder mean nothing then.
export function unlimited(s: IQuotaStatus): boolean {
  return !!s.unlimited && !!s.newcomerUntil;
}

// "newcomer: unlimited until 03-08" or "newcomer: x3 until 03-08" (its last day, in the
// budget's zone), or '' without an allowance. The factor is the budget's: (limit - boost)
// / budget_limit of the budget shown.
export function newcomerLine(s: IQuotaStatus, w: Words): string {
  if (!s.newcomerUntil) {
    return '';
  }
  const end = new Date(new Date(s.newcomerUntil).getTime() - 1000);
  if (isNaN(end.getTime())) {
    return '';
  }
  const p: Record<string, string> = {};
  new Intl.DateTimeFormat('en-CA', { timeZone: zoneOf(s), month: '2-digit', day: '2-digit' })
    .formatToParts(end)
    .forEach(x => (p[x.type] = x.value));
  const day = `${p.month}-${p.day}`;
  if (s.unlimited) {
    return w.t('newcomer: unlimited until %1', day);
  }
  type B = { period?: string; limit?: number; boost?: number; budget_limit?: number };
  const b = ((s.budgets ?? []) as B[]).find(x => x.period === s.period && x.budget_limit);
  const factor = b && b.budget_limit ? ((b.limit ?? 0) - (b.boost ?? 0)) / b.budget_limit : 0;
  return factor > 1
    ? w.t('newcomer: x%1 until %2', String(Math.round(factor * 100) / 100), day)
    : w.t('newcomer allowance until %1', day);
}

function zoneOf(s: IQuotaStatus): string | undefined {
  const b = (s.budgets ?? []).find(x => x.period === s.period && x.tz) ?? (s.budgets ?? [])[0];
  return b?.tz;
}

// "HH:MM" today, "tomorrow HH:MM", else "YYYY-MM-DD HH:MM", in the budget's zone.
export function when(rfc3339: string, s: IQuotaStatus, w: Words, now = new Date()): string {
  const at = new Date(rfc3339);
  if (isNaN(at.getTime())) {
    return rfc3339;
  }
  const zone = zoneOf(s);
  const parts = (d: Date) => {
    const f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit',
      minute: '2-digit', hourCycle: 'h23'
    });
    const p: Record<string, string> = {};
    f.formatToParts(d).forEach(x => (p[x.type] = x.value));
    return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
  };
  const a = parts(at);
  if (a.date === parts(now).date) {
    return a.time;
  }
  if (a.date === parts(new Date(now.getTime() + 86400000)).date) {
    return w.t('tomorrow %1', a.time);
  }
  return `${a.date} ${a.time}`;
}

// ok, near, grace, over, none, or "error" for a grey failure; an unlimited newcomer
// allowance is never near nor over.
export function stateOf(part: IPart): string {
  if (!part.ok || !part.status) {
    return 'error';
  }
  return unlimited(part.status) ? 'ok' : part.status.state;
}

// The red state's second line: when grace ends, or until when new jobs are refused.
export function overNote(s: IQuotaStatus, w: Words): string {
  if (unlimited(s)) {
    return '';
  }
  if (s.state === 'grace' && s.grace_end) {
    return w.t('Grace ends at %1: then new GPU jobs are refused.', when(s.grace_end, s, w));
  }
  if (s.state === 'over') {
    return w.t('Over the limit: new GPU jobs are refused until %1.', when(s.period_end, s, w));
  }
  return '';
}

function el(tag: string, cls: string, text?: string): HTMLElement {
  const e = document.createElement(tag);
  e.className = cls;
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
}

// One battery (the user's or the namespace's) into `into`.
export function renderPart(into: HTMLElement, label: string, part: IPart, w: Words): void {
  into.replaceChildren();
  const state = stateOf(part);
  into.dataset.state = state;
  into.appendChild(el('div', 'gq-label', label));
  const line = el('div', 'gq-line');
  line.appendChild(el('span', 'gq-sq'));
  const s = part.status;
  if (!part.ok || !s) {
    line.appendChild(el('span', 'gq-text', w.t('GPU quota unavailable')));
    into.title = part.reason ?? '';
    into.appendChild(line);
    return;
  }
  line.appendChild(el('span', 'gq-text', batteryLine(s, w)));
  into.title = unlimited(s)
    ? w.t('Used %1 GPU-h, no limit (newcomer allowance)', shortHours(s.used))
    : w.t('Used %1 GPU-h, limit %2 GPU-h (boosts included)', shortHours(s.used), shortHours(s.limit));
  into.appendChild(line);
  const newcomer = newcomerLine(s, w);
  if (newcomer) {
    into.appendChild(el('div', 'gq-newcomer', newcomer));
  }
  if (s.state !== 'none' && s.limit > 0 && !unlimited(s)) {
    const bar = el('div', 'gq-bar');
    const fill = el('div', 'gq-fill');
    fill.style.width = `${Math.max(0, Math.min(100, (100 * s.remaining) / s.limit))}%`;
    bar.appendChild(fill);
    into.appendChild(bar);
  }
  const note = overNote(s, w);
  if (note) {
    into.appendChild(el('div', 'gq-note', note));
  }
}

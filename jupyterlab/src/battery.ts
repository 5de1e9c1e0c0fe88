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

// ok, near, grace, over, none, or "error" for a grey failure.
export function stateOf(part: IPart): string {
  return part.ok && part.status ? part.status.state : 'error';
}

// The red state's second line: when grace ends, or until when new jobs are refused.
export function overNote(s: IQuotaStatus, w: Words): string {
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
  into.title = w.t('Used %1 GPU-h, limit %2 GPU-h (boosts included)', shortHours(s.used), shortHours(s.limit));
  into.appendChild(line);
  if (s.state !== 'none' && s.limit > 0) {
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

// "Request a boost" in the panel: a form (extra GPU-hours, for how long, why) posted
// through the server extension with the notebook's identity (the controller's POST
// /quota/boost-requests checks the note rule and RBAC), and the user's requests with
// their state and the admin's decision, refreshed with the battery; a pending one can be
// withdrawn. Errors show inline under the field they name, never as a popup.
import { Words } from './i18n';
import { IBoostRequest, IPart, postJson } from './model';

// The spans the self-service page offers (services/selfservice/boostrequestform.cpp).
const SPANS: Array<[string, string]> = [
  ['2h', '2 hours'],
  ['6h', '6 hours'],
  ['1d', '1 day'],
  ['3d', '3 days'],
  ['7d', '7 days']
];

// The controller's messages for the form's fields, in the user's language.
const KNOWN = [
  'a note of at least 10 characters is required (why this boost?)',
  'the extra GPU-hours must be a positive number',
  'a number of extra GPU-hours is required'
];

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = cls;
  if (text !== undefined) {
    e.textContent = text;
  }
  return e;
}

// "2026-03-09T14:00:00+08:00" as "03-09 14:00" in the browser's zone.
function shortWhen(rfc3339: string | undefined): string {
  const d = new Date(rfc3339 ?? '');
  if (isNaN(d.getTime())) {
    return rfc3339 ?? '';
  }
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

type Field = 'hours' | 'for' | 'note';

export class RequestsView {
  readonly node = el('section', 'gq-requests');
  private _form = el('form', 'gq-request-form');
  private _hours = el('input', 'gq-hours');
  private _for = el('select', 'gq-for');
  private _note = el('textarea', 'gq-note-input');
  private _send = el('button', 'gq-send jp-mod-styled jp-mod-accept');
  private _message = el('div', 'gq-form-message');
  private _errors = new Map<Field, HTMLElement>();
  private _list = el('ul', 'gq-request-list');
  private _listNote = el('div', 'gq-request-empty');
  private _withdrawing = new Map<number, string>(); // id -> the reason typed so far

  // `changed`: after a request was sent or withdrawn, to refresh at once.
  constructor(
    private _w: Words,
    private _changed: () => void
  ) {
    const w = _w;
    this._hours.type = 'number';
    this._hours.name = 'hours';
    this._hours.min = '0.25';
    this._hours.step = '0.25';
    this._hours.value = '4';
    this._for.name = 'for';
    for (const [value, label] of SPANS) {
      const o = el('option', '', w.t(label));
      o.value = value;
      o.selected = value === '1d';
      this._for.appendChild(o);
    }
    this._note.name = 'note';
    this._note.rows = 3;
    this._note.placeholder = w.t('e.g. paper deadline on Friday, final runs');
    this._send.type = 'submit';
    this._send.textContent = w.t('Send request');
    const row = (field: Field, label: string, input: HTMLElement) => {
      const l = el('label', `gq-field gq-field-${field}`);
      l.append(el('span', 'gq-field-label', label), input);
      const error = el('div', 'gq-field-error');
      error.dataset.field = field;
      error.hidden = true;
      this._errors.set(field, error);
      this._form.append(l, error);
    };
    this._form.appendChild(el('h3', '', w.t('Request a boost')));
    row('hours', w.t('Extra GPU-hours'), this._hours);
    row('for', w.t('For'), this._for);
    row('note', w.t('Why (at least 10 characters)'), this._note);
    this._form.append(this._send, this._message);
    this._form.addEventListener('submit', event => {
      event.preventDefault();
      void this.submit();
    });
    const mine = el('h3', '', w.t('Your requests'));
    this.node.append(this._form, mine, this._listNote, this._list);
  }

  private label(field: Field): string {
    return this._w.t(field === 'hours' ? 'Extra GPU-hours' : field === 'for' ? 'For' : 'Why');
  }

  private clearErrors(): void {
    this._errors.forEach(e => {
      e.hidden = true;
      e.textContent = '';
    });
    this._message.textContent = '';
    this._message.dataset.kind = '';
  }

  // The controller's "note: ..." under the note field, else under the button.
  private showError(reason: string): void {
    const m = /^(hours|for|until|note): (.*)$/s.exec(reason);
    if (m) {
      const field: Field = m[1] === 'until' ? 'for' : (m[1] as Field);
      const text = KNOWN.includes(m[2]) ? this._w.t(m[2]) : m[2];
      const e = this._errors.get(field)!;
      e.textContent = this._w.t('%1: %2', this.label(field), text);
      e.hidden = false;
      return;
    }
    this._message.dataset.kind = 'error';
    this._message.textContent = this._w.t('The request was not sent: %1', reason);
  }

  async submit(): Promise<void> {
    this.clearErrors();
    const hours = this._hours.valueAsNumber;
    if (!isFinite(hours)) {
      this.showError('hours: a number of extra GPU-hours is required');
      return;
    }
    this._send.disabled = true;
    try {
      const answer = await postJson('boost-requests', {
        hours,
        for: this._for.value,
        note: this._note.value
      });
      if (!answer.ok || !answer.request) {
        this.showError(answer.reason ?? '');
        return;
      }
      this._note.value = '';
      this._message.dataset.kind = 'sent';
      this._message.textContent = this._w.t(
        'Request #%1 sent: an admin approves or denies it.',
        String(answer.request.id)
      );
      this._changed();
    } finally {
      this._send.disabled = false;
    }
  }

  private stateText(state: string): string {
    return this._w.t(['pending', 'approved', 'denied', 'expired'].includes(state) ? state : 'withdrawn');
  }

  // The user's requests as the controller lists them (pending first, then newest).
  show(part: IPart | null): void {
    const w = this._w;
    this._list.replaceChildren();
    if (!part || !part.ok) {
      this._listNote.textContent = w.t('Your requests are unavailable');
      this._listNote.title = part?.reason ?? '';
      this._listNote.hidden = false;
      return;
    }
    const requests = part.requests ?? [];
    this._listNote.title = '';
    this._listNote.textContent = w.t('No requests yet.');
    this._listNote.hidden = requests.length > 0;
    for (const r of requests) {
      this._list.appendChild(this.item(r));
    }
  }

  private item(r: IBoostRequest): HTMLElement {
    const w = this._w;
    const li = el('li', 'gq-request');
    li.dataset.id = String(r.id);
    li.dataset.state = r.state;
    const head = el('div', 'gq-request-head');
    head.append(
      el('span', 'gq-badge', this.stateText(r.state)),
      el('span', 'gq-request-what', w.t('#%1: %2 GPU-h until %3', String(r.id), String(r.hours), shortWhen(r.until)))
    );
    li.append(head, el('div', 'gq-request-note', r.note));
    if (r.decided_by && r.decision_note) {
      li.appendChild(el('div', 'gq-decision', w.t('%1: %2', r.decided_by, r.decision_note)));
    }
    if (r.state === 'pending') {
      li.appendChild(this.withdrawControls(r.id));
    }
    return li;
  }

  // Withdraw asks why first (the note rule), inline.
  private withdrawControls(id: number): HTMLElement {
    const w = this._w;
    const box = el('div', 'gq-withdraw');
    const start = el('button', 'gq-withdraw-start jp-mod-styled', w.t('Withdraw'));
    start.type = 'button';
    const why = el('input', 'gq-withdraw-note');
    why.placeholder = w.t('Why withdraw (at least 10 characters)');
    const confirm = el('button', 'gq-withdraw-confirm jp-mod-styled jp-mod-warn', w.t('Withdraw'));
    confirm.type = 'button';
    const error = el('div', 'gq-field-error');
    error.hidden = true;
    const open = (yes: boolean) => {
      start.hidden = yes;
      why.hidden = !yes;
      confirm.hidden = !yes;
    };
    // A refresh redraws the list: what was typed stays.
    open(this._withdrawing.has(id));
    why.value = this._withdrawing.get(id) ?? '';
    why.addEventListener('input', () => this._withdrawing.set(id, why.value));
    start.addEventListener('click', () => {
      this._withdrawing.set(id, why.value);
      open(true);
      why.focus();
    });
    confirm.addEventListener('click', async () => {
      error.hidden = true;
      confirm.disabled = true;
      const answer = await postJson('boost-requests/withdraw', { id, note: why.value });
      confirm.disabled = false;
      if (!answer.ok) {
        const m = /^note: (.*)$/s.exec(answer.reason ?? '');
        const text = m ? (KNOWN.includes(m[1]) ? w.t(m[1]) : m[1]) : (answer.reason ?? '');
        error.textContent = m ? w.t('%1: %2', w.t('Why'), text) : w.t('Not withdrawn: %1', text);
        error.hidden = false;
        return;
      }
      this._withdrawing.delete(id);
      this._changed();
    });
    box.append(start, why, confirm, error);
    return box;
  }
}

// GPU Quota battery: a sidebar panel and a status-bar item with the GPU-hours left (the
// user's and the namespace's), refreshed every minute and when a cell finishes; the 20 %
// prompt once per period; red with the grace end when over; grey with the reason on
// hover when the controller cannot be asked; a newcomer's allowance beside the battery.
// In the panel, "Request a boost" and the user's requests with the admin's decisions.
import { JupyterFrontEnd, JupyterFrontEndPlugin } from '@jupyterlab/application';
import { Notification } from '@jupyterlab/apputils';
import { NotebookActions } from '@jupyterlab/notebook';
import { IStatusBar } from '@jupyterlab/statusbar';
import { ITranslator } from '@jupyterlab/translation';
import { LabIcon } from '@jupyterlab/ui-components';
import { Widget } from '@lumino/widgets';

import { batteryLine, newcomerLine, renderPart, shortHours, stateOf, unlimited } from './battery';
import { pickLanguage, Words } from './i18n';
import { IPart, ISnapshot, QuotaModel } from './model';
import { RequestsView } from './requests';

const batterySvg =
  '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24">' +
  '<path class="jp-icon3" fill="#616161" d="M15.67 4H14V2h-4v2H8.33C7.6 4 7 4.6 7 5.33v15.33' +
  'C7 21.4 7.6 22 8.33 22h7.33c.74 0 1.34-.6 1.34-1.33V5.33C17 4.6 16.4 4 15.67 4zM15 20H9V6h6v14z' +
  'M10 12h4v7h-4z"/></svg>';
const batteryIcon = new LabIcon({ name: 'gpuquota:battery', svgstr: batterySvg });

// The 20 % prompt: once per budget and period, kept across reloads in localStorage.
// Once over the limit the prompt is withdrawn: the red battery says the rest.
const prompted = new Set<string>();
const shown = new Map<string, string>(); // scope/subject -> the prompt's notification id
function promptOnce(part: IPart, w: Words): void {
  const s = part.status;
  if (!part.ok || !s || unlimited(s)) {
    return; // nothing to warn of under an unlimited newcomer allowance
  }
  const subject = `${s.scope}/${s.subject}`;
  if (s.state === 'grace' || s.state === 'over') {
    const id = shown.get(subject);
    if (id !== undefined) {
      Notification.dismiss(id);
      shown.delete(subject);
    }
    return;
  }
  if (s.limit <= 0 || (s.state !== 'ok' && s.state !== 'near')) {
    return;
  }
  if (s.remaining / s.limit >= 0.2) {
    return;
  }
  const key = `gpuquota-prompted:${subject}:${s.period}:${s.period_start}`;
  let seen = prompted.has(key);
  try {
    seen = seen || window.localStorage.getItem(key) !== null;
    window.localStorage.setItem(key, new Date().toISOString());
  } catch {
    // No storage (private mode): once per page load then.
  }
  prompted.add(key);
  if (!seen) {
    const text = w.t(
      "Less than 20 % of your GPU-hours are left (%1 of %2). Check your training's efficiency to avoid being stopped midway.",
      shortHours(s.remaining),
      shortHours(s.limit)
    );
    shown.set(subject, Notification.warning(text, { autoClose: false }));
  }
}

class QuotaPanel extends Widget {
  private _user = document.createElement('section');
  private _ns = document.createElement('section');
  private _updated = document.createElement('div');
  private _requests: RequestsView;

  constructor(
    private _w: Words,
    changed: () => void
  ) {
    super();
    this.id = 'gpuquota-panel';
    this.addClass('gq-panel');
    this.title.icon = batteryIcon;
    this.title.caption = _w.t('GPU quota');
    const h = document.createElement('h2');
    h.textContent = _w.t('GPU quota');
    this._user.className = 'gq-part gq-user';
    this._ns.className = 'gq-part gq-namespace';
    this._updated.className = 'gq-updated';
    this._user.textContent = _w.t('Loading…');
    this._requests = new RequestsView(_w, changed);
    this.node.append(h, this._user, this._ns, this._updated, this._requests.node);
  }

  show_(snap: ISnapshot): void {
    const w = this._w;
    const who = snap.user.status?.subject;
    renderPart(this._user, who ? `${w.t('You')} (${who})` : w.t('You'), snap.user, w);
    this._ns.hidden = !snap.namespace;
    if (snap.namespace) {
      renderPart(this._ns, w.t('Namespace %1', snap.namespace.name ?? ''), snap.namespace, w);
    }
    const hhmm = snap.at.toTimeString().slice(0, 5);
    this._updated.textContent = w.t('Updated %1', hhmm);
    this._requests.show(snap.requests);
  }
}

class QuotaStatusItem extends Widget {
  constructor(private _w: Words) {
    super();
    this.id = 'gpuquota-statusbar';
    this.addClass('gq-status');
    this.node.textContent = _w.t('Loading…');
  }

  show_(snap: ISnapshot): void {
    const w = this._w;
    const part = snap.user;
    this.node.replaceChildren();
    this.node.dataset.state = stateOf(part);
    const sq = document.createElement('span');
    sq.className = 'gq-sq';
    const text = document.createElement('span');
    if (part.ok && part.status) {
      const newcomer = newcomerLine(part.status, w);
      text.textContent = newcomer ? `${batteryLine(part.status, w)} · ${newcomer}` : batteryLine(part.status, w);
      this.node.title = w.t('GPU quota');
    } else {
      text.textContent = w.t('GPU quota unavailable');
      this.node.title = w.t('GPU quota unavailable: %1', part.reason ?? '');
    }
    this.node.append(sq, text);
  }
}

const plugin: JupyterFrontEndPlugin<void> = {
  id: 'gpuquota-jupyterlab:plugin',
  description: 'GPU-hours left today, as the self-service page shows them',
  autoStart: true,
  optional: [IStatusBar, ITranslator],
  activate: (app: JupyterFrontEnd, statusBar: IStatusBar | null, translator: ITranslator | null) => {
    const w = new Words(pickLanguage(translator?.languageCode, navigator.languages ?? [navigator.language]));
    const model = new QuotaModel();
    const panel = new QuotaPanel(w, () => void model.refresh());
    app.shell.add(panel, 'right', { rank: 900 });
    const item = new QuotaStatusItem(w);
    if (statusBar) {
      statusBar.registerStatusItem('gpuquota-jupyterlab:status', { item, align: 'left', rank: 900 });
    }
    model.changed.connect((_, snap) => {
      panel.show_(snap);
      item.show_(snap);
      promptOnce(snap.user, w);
      if (snap.namespace) {
        promptOnce(snap.namespace, w);
      }
    });
    // A finished cell may have used GPU time: ask again.
    NotebookActions.executed.connect(() => void model.refresh());
    model.start();
  }
};

export default plugin;

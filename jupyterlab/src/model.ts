// The quota as the server extension proxies it (GET <base>/gpuquota/status): fetched
// every minute and when a cell finishes, one request at a time.
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';
import { ISignal, Signal } from '@lumino/signaling';

// One answer of the controller's /quota/status (README: "Self-service").
export interface IQuotaStatus {
  scope: string;
  subject: string;
  used: number;
  limit: number;
  remaining: number;
  period: string;
  period_start: string;
  period_end: string;
  state: 'ok' | 'near' | 'grace' | 'over' | 'none' | string;
  grace_end?: string;
  budgets?: Array<{ period?: string; tz?: string }>;
  // The newcomer allowance in force (README: "newcomer allowance"): its exclusive end,
  // "newcomer allowance until MM-dd", and whether it lifts the limit (else x factor).
  newcomerUntil?: string | null;
  newcomer?: string;
  unlimited?: boolean;
}

// One boost request as the controller's /quota/boost-requests gives it.
export interface IBoostRequest {
  id: number;
  state: 'pending' | 'approved' | 'denied' | 'expired' | 'withdrawn' | string;
  requester: string;
  budget: string;
  hours: number;
  until: string;
  note: string;
  created: string;
  decided_by?: string;
  decision_note?: string;
  decided?: string;
  boost_id?: number;
}

// A part of the server extension's answer: a status or why there is none.
export interface IPart {
  ok: boolean;
  status?: IQuotaStatus;
  code?: number;
  reason?: string;
  name?: string;
  requests?: IBoostRequest[];
}

export interface ISnapshot {
  user: IPart;
  namespace: IPart | null;
  requests: IPart | null; // the user's boost requests (IPart.requests)
  at: Date;
}

export const REFRESH_MS = 60000;

export class QuotaModel {
  private _snapshot: ISnapshot | null = null;
  private _changed = new Signal<this, ISnapshot>(this);
  private _inFlight = false;
  private _again = false;
  private _timer = 0;

  get changed(): ISignal<this, ISnapshot> {
    return this._changed;
  }

  get snapshot(): ISnapshot | null {
    return this._snapshot;
  }

  start(): void {
    void this.refresh();
    this._timer = window.setInterval(() => void this.refresh(), REFRESH_MS);
  }

  dispose(): void {
    window.clearInterval(this._timer);
  }

  // A refresh asked for while one runs is done once after it, not once per ask.
  async refresh(): Promise<void> {
    if (this._inFlight) {
      this._again = true;
      return;
    }
    this._inFlight = true;
    try {
      do {
        this._again = false;
        this._snapshot = await fetchSnapshot();
        this._changed.emit(this._snapshot);
      } while (this._again);
    } finally {
      this._inFlight = false;
    }
  }
}

async function fetchSnapshot(): Promise<ISnapshot> {
  const settings = ServerConnection.makeSettings();
  const url = URLExt.join(settings.baseUrl, 'gpuquota', 'status');
  try {
    const response = await ServerConnection.makeRequest(url, { cache: 'no-store' }, settings);
    if (!response.ok) {
      return failed(response.status, `the notebook server answered ${response.status}`);
    }
    const body = (await response.json()) as { user: IPart; namespace: IPart | null; requests?: IPart };
    return { user: body.user, namespace: body.namespace, requests: body.requests ?? null, at: new Date() };
  } catch (error) {
    return failed(0, `the notebook server is not reachable (${String(error)})`);
  }
}

function failed(code: number, reason: string): ISnapshot {
  return { user: { ok: false, code, reason }, namespace: null, requests: null, at: new Date() };
}

// The server extension's answer to a POST (a new request, a withdrawal).
export interface IPostAnswer {
  ok: boolean;
  request?: IBoostRequest;
  code?: number;
  reason?: string;
}

// POST <base>/gpuquota/<path> with a JSON body; failures as an answer, never thrown.
export async function postJson(path: string, body: unknown): Promise<IPostAnswer> {
  const settings = ServerConnection.makeSettings();
  const url = URLExt.join(settings.baseUrl, 'gpuquota', path);
  try {
    const response = await ServerConnection.makeRequest(
      url,
      { method: 'POST', body: JSON.stringify(body), cache: 'no-store' },
      settings
    );
    if (!response.ok) {
      return { ok: false, code: response.status, reason: `the notebook server answered ${response.status}` };
    }
    return (await response.json()) as IPostAnswer;
  } catch (error) {
    return { ok: false, code: 0, reason: `the notebook server is not reachable (${String(error)})` };
  }
}

// The real-time channel (protocol.md §3): one Socket.IO connection to /table, with
// automatic reconnection and `resume` so that no event is missed or repeated.
import { io } from "../vendor/socket.io.esm.min.js";

export class TableConnection {
  /**
   * @param {string} table  the table id
   * @param {string|null} token  the seat's token (null: watch)
   * @param {object} handlers  onState(msg), onEvents(msg), onStatus("online"|"offline"|"refused", text)
   */
  constructor(table, token, handlers) {
    this.table = table;
    this.token = token;
    this.h = handlers;
    this.seq = -1; // highest seq whose events were taken in
    this.everConnected = false;
    const auth = token ? { table, token } : { table };
    this.socket = io("/table", {
      auth,
      transports: ["websocket"],
      reconnectionDelay: 300,
      reconnectionDelayMax: 2000,
      timeout: 5000,
    });
    this.socket.on("connect", () => this._connected());
    this.socket.on("disconnect", (why) => {
      this.h.onStatus?.("offline", why);
      if (why === "io server disconnect") this.socket.connect();
    });
    this.socket.on("connect_error", (err) => {
      const text = err && err.message ? err.message : String(err);
      // A refusal by the server (bad table, bad token) is final; a network error retries.
      if (err && err.data !== undefined) return this.h.onStatus?.("refused", text);
      if (/bad token|unknown table|no table|auth/i.test(text)) {
        this.socket.disconnect();
        return this.h.onStatus?.("refused", text);
      }
      this.h.onStatus?.("offline", text);
    });
    this.socket.on("state", (msg) => {
      if (typeof msg.seq === "number" && msg.seq > this.seq) this.seq = msg.seq;
      this.h.onState?.(msg);
    });
    this.socket.on("events", (msg) => {
      // Events before this.seq were already taken in (from before a reconnect). A batch with
      // the seq of the last one is new: a change without a line of its own (a Stop cancel
      // window closing) carries the seq of the last line (protocol §3), and resume never
      // sends a batch at or below the seq it resumes from.
      if (typeof msg.seq === "number" && msg.seq < this.seqEvents) return;
      this.seqEvents = msg.seq;
      this.h.onEvents?.(msg);
    });
    this.seqEvents = -1;
    // Chat (protocol.md §8): the history after every connect and resume, then each message.
    this.socket.on("chat", (msg) => this.h.onChat?.(msg && Array.isArray(msg.messages) ? msg.messages : []));
  }

  _connected() {
    const again = this.everConnected;
    this.everConnected = true;
    this.h.onStatus?.("online", again ? "reconnected" : "connected");
    if (again && this.seq >= 0) {
      this.seqEvents = Math.max(this.seqEvents, this.seq);
      this.socket.timeout(5000).emit("resume", { seq: this.seq }, () => {});
    } else if (this.seqEvents < 0 && this.seq >= 0) {
      this.seqEvents = this.seq;
    }
  }

  /** Send an action line; resolves with the ack ({ok, seq} or {ok:false, reason, rule, message}). */
  act(line) {
    return new Promise((resolve) => {
      if (!this.socket.connected) {
        resolve({ ok: false, reason: "not_connected", rule: "", message: "offline: reconnecting" });
        return;
      }
      this.socket.timeout(15000).emit("action", line, (err, ack) => {
        if (err) resolve({ ok: false, reason: "not_connected", rule: "", message: "no answer from the server" });
        else resolve(ack);
      });
    });
  }

  /** Resolves true once the socket is connected, false after `ms` without a connection.
   * A message typed just after sitting down waits for its own connection instead of
   * failing while the handshake is still on its way. */
  whenConnected(ms) {
    if (this.socket.connected) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok) => {
        clearTimeout(timer);
        this.socket.off("connect", onConnect);
        resolve(ok);
      };
      const onConnect = () => done(true);
      const timer = setTimeout(() => done(false), ms);
      this.socket.on("connect", onConnect);
    });
  }

  /** Emit `event` with `data` (waiting up to 5 s for a connection); resolves with its ack,
   * or a not_connected refusal. */
  async call(event, data) {
    if (!(await this.whenConnected(5000))) return { ok: false, reason: "not_connected", rule: "", message: "" };
    return new Promise((resolve) => {
      this.socket.timeout(15000).emit(event, data, (err, ack) => {
        if (err) resolve({ ok: false, reason: "not_connected", rule: "", message: "" });
        else resolve(ack);
      });
    });
  }

  /** Say `text` in the table's chat. */
  say(text) {
    return this.call("chat", { text });
  }

  /** Play again (protocol.md §8): {ok, table, seat, token} or a refusal. */
  rematch() {
    return this.call("rematch", {});
  }

  close() {
    this.socket.disconnect();
  }
}

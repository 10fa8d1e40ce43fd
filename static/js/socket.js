// socket.js keeps one WebSocket to the game open: it reconnects with
// growing, jittered delays after a drop and asks for the full state again
// (`sync`) each time it is back, since moves may have happened meanwhile.

/** GameSocket wraps the WebSocket with reconnects; messages arrive parsed. */
export class GameSocket {
  /**
   * @param {string} url ws:// or wss:// URL of the game
   * @param {{onMessage: (msg: object) => void, onStatus: (up: boolean) => void}} handlers
   */
  constructor(url, handlers) {
    this.url = url;
    this.handlers = handlers;
    this.ws = null;
    this.attempt = 0;
    this.stopped = false;
    this.timer = 0;
    this.queue = [];
  }

  connect() {
    if (this.stopped) return;
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      this.attempt = 0;
      this.handlers.onStatus(true);
      this.send({ type: 'sync' });
      // Only a message the person sent while offline is retried; the
      // server refuses it as stale if the game moved on.
      const q = this.queue;
      this.queue = [];
      for (const m of q) this.send(m);
    });
    ws.addEventListener('message', (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return; // the server only sends JSON; ignore anything else
      }
      if (msg && typeof msg.type === 'string') this.handlers.onMessage(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.handlers.onStatus(false);
      this.retry();
    });
  }

  retry() {
    clearTimeout(this.timer);
    // 0.5 s, 1 s, 2 s ... up to 10 s, with jitter so many tabs do not
    // reconnect in lockstep after a server restart.
    const base = Math.min(10000, 500 * 2 ** this.attempt);
    this.attempt++;
    this.timer = setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
  }

  /** send delivers msg now, or keeps the last one for the reconnect. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    if (msg.type !== 'sync') this.queue = [msg];
    return false;
  }

  /** stop closes the socket for good (the page is leaving). */
  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}

// Hearth page helpers (Datastar does the rest): clock, live-stream health
// (reconnect indicator and a watchdog that reloads a page whose stream went
// silent), idle return to the household view, rotation between members,
// flash messages, voice memo recording and playlist auto-advance. No third-party code.
(() => {
  'use strict';
  const body = document.body;

  // The live stream's AbortController (see views.streamExpr): leaving the
  // page ends the stream; a page restored from the back-forward cache has a
  // dead stream and old numbers, so it reloads.
  window.hearthStream = new AbortController();
  addEventListener('pagehide', () => window.hearthStream.abort());
  addEventListener('pageshow', (e) => { if (e.persisted) location.reload(); });

  // Clock and date in the household's time zone. The page gives the zone's
  // offset from UTC and when it next changes (from the server's zone data),
  // so the clock needs no Intl: a fresh renderer's first Intl formatter
  // costs 16-40 ms (ICU's start), the household page's longest task
  // (BENCHMARKS.md, "Lighthouse"). Past that moment, or without an offset,
  // Intl formats as before; without a zone the browser's own is the
  // household's. The text is written only when it changes: a write a
  // second was a DOM mutation, style and layout a second.
  const tz = body.dataset.hearthTz || undefined;
  const clock = document.getElementById('clock');
  const date = document.getElementById('date');
  if (clock) {
    const offset = body.dataset.hearthTzOffset;
    const until = Number(body.dataset.hearthTzUntil || 0);
    const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October',
      'November', 'December'];
    const two = (n) => (n < 10 ? '0' : '') + n;
    let intl = null;
    const texts = (now) => {
      if (!tz) {
        return [two(now.getHours()) + ':' + two(now.getMinutes()), `${days[now.getDay()]} ${now.getDate()} ${months[now.getMonth()]}`];
      }
      if (offset !== undefined && (until === 0 || now.getTime() < until)) {
        const z = new Date(now.getTime() + Number(offset) * 60000);
        return [two(z.getUTCHours()) + ':' + two(z.getUTCMinutes()), `${days[z.getUTCDay()]} ${z.getUTCDate()} ${months[z.getUTCMonth()]}`];
      }
      intl = intl || [new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: tz }),
        new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: tz })];
      return [intl[0].format(now), intl[1].format(now).replace(',', '')];
    };
    const tick = () => {
      const [t, d] = texts(new Date());
      if (clock.textContent !== t) clock.textContent = t;
      if (date && date.textContent !== d) date.textContent = d;
    };
    tick();
    setInterval(tick, 1000);
  }

  // Request ids: the Datastar client re-sends a POST after a network error,
  // so every form that posts carries a fresh random id (_rid) that the
  // server uses to answer a repeat instead of doing the work twice. It is
  // filled at submit time (cached page HTML never carries one) and cleared
  // once the answer arrived, so the next submit gets a new one.
  // crypto.randomUUID needs a secure context, which a LAN kiosk lacks.
  const newId = () => {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  };
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || form.method !== 'post') return;
    let rid = form.querySelector('input[name=_rid]');
    if (!rid) {
      rid = document.createElement('input');
      rid.type = 'hidden';
      rid.name = '_rid';
      form.appendChild(rid);
    }
    if (!rid.value) rid.value = newId();
  }, true);
  document.addEventListener('datastar-fetch', (e) => {
    const d = e.detail || {};
    if (d.type !== 'finished' || !(d.el instanceof Element)) return;
    const form = d.el.closest('form');
    const rid = form && form.querySelector('input[name=_rid]');
    if (rid) rid.value = '';
  });

  // Live stream health. Every event from the stream element (patches and the
  // server's keep-alive signal patches) proves it alive.
  const live = document.getElementById('live');
  const OFFLINE_AFTER = 20000; // keep-alives come every 15 s
  const RELOAD_AFTER = 45000; // a tablet that slept leaves a dead stream
  let lastSeen = Date.now();
  let connected = false;
  const setOffline = (off) => {
    body.classList.toggle('offline', off);
    body.dataset.hearthLive = off ? '0' : '1';
    if (off) connected = false;
  };
  if (live) {
    document.addEventListener('datastar-fetch', (e) => {
      const d = e.detail || {};
      if (d.el !== live) return;
      if (d.type === 'datastar-patch-elements' || d.type === 'datastar-patch-signals') {
        lastSeen = Date.now();
        if (!connected) { connected = true; setOffline(false); }
      } else if (d.type === 'retrying' || d.type === 'error' || d.type === 'retries-failed') {
        setOffline(true);
      }
    });
    let checking = false;
    setInterval(async () => {
      const silent = Date.now() - lastSeen;
      if (silent > OFFLINE_AFTER) setOffline(true);
      if (silent > RELOAD_AFTER && !checking) {
        // Reload only when the server answers, or the kiosk would be left
        // on the browser's error page.
        checking = true;
        try {
          const r = await fetch('/healthz', { cache: 'no-store' });
          if (r.ok) location.reload();
        } catch (_) { /* still down: keep waiting */ }
        checking = false;
      }
    }, 5000);
    document.addEventListener('visibilitychange', () => {
      if (!document.hidden && Date.now() - lastSeen > RELOAD_AFTER) lastSeen = Date.now() - RELOAD_AFTER - 1;
    });
  }

  // Idle: a member page returns to the household view after a quiet spell.
  const idle = parseInt(body.dataset.hearthIdle || '0', 10);
  if (idle > 0) {
    let last = Date.now();
    for (const ev of ['pointerdown', 'keydown', 'touchstart', 'wheel', 'input']) {
      document.addEventListener(ev, () => { last = Date.now(); }, { passive: true, capture: true });
    }
    setInterval(() => {
      const recording = document.querySelector('.voice-form.recording');
      const playing = document.getElementById('player');
      if (recording || (playing && !playing.paused)) { last = Date.now(); return; }
      if (Date.now() - last > idle) location.href = '/';
    }, 1000);
  }

  // The last touch, key or scroll anywhere on the page.
  let lastInput = Date.now();
  for (const ev of ['pointerdown', 'keydown', 'touchstart', 'wheel', 'input']) {
    document.addEventListener(ev, () => { lastInput = Date.now(); }, { passive: true, capture: true });
  }
  // Something is under way that night must not cover: a video playing, a
  // voice reply being recorded.
  const busy = () => {
    const v = document.getElementById('player');
    return !!(document.querySelector('.voice-form.recording') || (v && !v.paused && !v.ended));
  };

  // Screen Wake Lock: a wall screen (data-hearth-screen) keeps the display
  // on while it is awake and visible, and lets go at night so the tablet
  // can sleep. The browser drops the lock when the page is hidden; it is
  // taken again when the page shows. Where the API is missing (an old
  // browser, a plain-HTTP origin that is not this machine) or refuses,
  // nothing happens. data-hearth-wake says what the page holds.
  let nightOn = false; // set by night mode, below
  let wakeLock = null;
  let locking = false;
  async function syncWakeLock() {
    if (!('hearthScreen' in body.dataset)) return;
    if (!navigator.wakeLock) { body.dataset.hearthWake = 'unsupported'; return; }
    const want = !nightOn && document.visibilityState === 'visible';
    if (!want && wakeLock) {
      const l = wakeLock;
      wakeLock = null;
      body.dataset.hearthWake = 'released';
      l.release().catch(() => {});
      return;
    }
    if (!want || wakeLock || locking) return;
    locking = true;
    try {
      const l = await navigator.wakeLock.request('screen');
      wakeLock = l;
      body.dataset.hearthWake = 'held';
      l.addEventListener('release', () => {
        if (wakeLock === l) { wakeLock = null; body.dataset.hearthWake = 'released'; }
      });
    } catch (_) {
      body.dataset.hearthWake = 'refused';
    } finally {
      locking = false;
    }
    if (nightOn || document.visibilityState !== 'visible') syncWakeLock(); // changed while asking
  }
  document.addEventListener('visibilitychange', syncWakeLock);
  syncWakeLock();

  // Night mode (views.Page.Night): from data-hearth-night-from to
  // data-hearth-night-to, household time, the page dims to a big clock
  // (mode dim) or goes black (blank). Decided here every second from the
  // clock, so a page open all evening goes dark at the hour and wakes at
  // the other, without a reload. A tap wakes it for WAKE_MS; then, still
  // within the night, it goes dark again. The wake is kept for the tab
  // (sessionStorage): the member page a woken screen opens stays awake.
  const WAKE_MS = 3 * 60 * 1000;
  const WOKE = 'hearthWokeUntil';
  const nightEl = document.getElementById('night');
  const toMinute = (s) => {
    const m = /^(\d\d):(\d\d)$/.exec(s || '');
    return m ? +m[1] * 60 + +m[2] : -1;
  };
  const nightFrom = toMinute(body.dataset.hearthNightFrom);
  const nightTo = toMinute(body.dataset.hearthNightTo);
  let wokeUntil = 0;
  try { wokeUntil = +sessionStorage.getItem(WOKE) || 0; } catch (_) { /* no storage: not kept */ }
  const setWoke = (t) => {
    wokeUntil = t;
    try { if (t) sessionStorage.setItem(WOKE, String(t)); else sessionStorage.removeItem(WOKE); } catch (_) {}
  };
  if (nightEl && nightFrom >= 0 && nightTo >= 0 && nightFrom !== nightTo) {
    const hm = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: tz });
    const ndf = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: tz });
    const nClock = document.getElementById('night-clock');
    const nDate = document.getElementById('night-date');
    const inNight = (now) => {
      const p = {};
      for (const x of hm.formatToParts(now)) p[x.type] = x.value;
      const m = (+p.hour % 24) * 60 + +p.minute;
      return nightFrom < nightTo ? m >= nightFrom && m < nightTo : m >= nightFrom || m < nightTo;
    };
    const nightTick = () => {
      const now = new Date();
      const inside = inNight(now);
      if (!inside && wokeUntil) setWoke(0); // the next night starts dark again
      const on = inside && now.getTime() >= wokeUntil && !busy();
      if (on) {
        nClock.textContent = hm.format(now);
        nDate.textContent = ndf.format(now).replace(',', '');
      }
      if (on === nightOn) return;
      nightOn = on;
      nightEl.hidden = !on;
      body.classList.toggle('night-on', on);
      body.dataset.hearthNight = on ? '1' : '0';
      if (on) {
        // Nothing stays open under the night: a half-typed sheet waits.
        const a = document.activeElement;
        if (a instanceof HTMLElement) a.blur();
      }
      syncWakeLock();
    };
    const wake = (e) => {
      if (!nightOn) return;
      e.preventDefault();
      e.stopPropagation();
      setWoke(Date.now() + WAKE_MS);
      nightTick();
    };
    nightEl.addEventListener('click', wake);
    document.addEventListener('keydown', wake, true);
    nightTick();
    setInterval(nightTick, 1000);
  }

  // The household settings this page was rendered with changed (the live
  // stream appends #hearth-reload): reload to follow them, once nobody has
  // touched the screen for a minute and nothing is playing.
  new MutationObserver((_, obs) => {
    if (!document.getElementById('hearth-reload')) return;
    obs.disconnect();
    setInterval(() => {
      if (Date.now() - lastInput > 60000 && !busy()) location.reload();
    }, 1000);
  }).observe(body, { childList: true });

  // Date-and-time fields of new entries start at now, in the household's
  // time zone: a sheet opened hours after the page loaded gets the current
  // time, unless the member already changed the field.
  const localNow = () => {
    const parts = {};
    for (const p of new Intl.DateTimeFormat('en-CA', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit',
      day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(new Date())) parts[p.type] = p.value;
    return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
  };
  document.addEventListener('input', (e) => {
    if (e.target instanceof HTMLInputElement && e.target.classList.contains('when-now')) e.target.dataset.touched = '1';
  }, true);
  // A call to action about a past day ("No meals logged yesterday") opens
  // its sheet on that day, at the time it is now: following it fills the
  // gap it names. The day is kept on the sheet element until it opens.
  window.hearthSheetDay = (name, day) => {
    const sheet = document.getElementById('sheet-' + name);
    if (sheet && /^\d{4}-\d{2}-\d{2}$/.test(day || '')) sheet.hearthDay = day;
  };
  window.hearthSheetOpened = (sheet) => {
    const day = sheet.hearthDay;
    delete sheet.hearthDay;
    for (const i of sheet.querySelectorAll('input.when-now')) {
      if (day) {
        i.value = day + localNow().slice(10);
        delete i.dataset.touched;
      } else if (!i.dataset.touched && !i.getAttribute('aria-invalid')) i.value = localNow();
    }
  };

  // One observer of the page's changes (it was three, each handed every
  // record of every patch): the toast after a delete offers Undo for 10
  // seconds, flash messages fade out after a few seconds, and the chat log
  // follows the answer as it is written.
  let toastTimer;
  let flashTimer;
  new MutationObserver((muts) => {
    const t = document.getElementById('toast');
    if (t && t.classList.contains('show') && t.dataset.shown !== '1') {
      t.dataset.shown = '1';
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => { t.classList.remove('show'); t.replaceChildren(); }, 10000);
    }
    const flash = document.getElementById('flash');
    if (flash && flash.textContent.trim()) {
      flash.classList.add('show');
      clearTimeout(flashTimer);
      flashTimer = setTimeout(() => flash.classList.remove('show'), 4000);
    }
    for (const log of document.querySelectorAll('.chat-log')) {
      if (muts.some((m) => log.contains(m.target) || m.target.contains(log))) log.scrollTop = log.scrollHeight;
    }
  }).observe(body, { childList: true, subtree: true, characterData: true });

  // Voice memos: record with MediaRecorder, upload with the CSRF header.
  const canRecord = !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia && window.MediaRecorder);
  if (canRecord) document.documentElement.classList.add('has-recorder');
  const types = ['audio/webm;codecs=opus', 'audio/webm', 'audio/ogg;codecs=opus', 'audio/mp4'];
  const exts = { 'audio/webm': '.webm', 'audio/ogg': '.ogg', 'audio/mp4': '.m4a' };
  let rec = null;
  let talkHeld = false;
  const status = (form, text) => { const s = form.querySelector('.voice-status'); if (s) s.textContent = text; };
  const showStop = (form, on) => {
    form.classList.toggle('recording', on);
    const stop = form.querySelector('.voice-stop');
    if (stop) stop.hidden = !on;
  };
  async function upload(form, blob) {
    const base = (blob.type || 'audio/webm').split(';')[0];
    const fd = new FormData();
    fd.append('prompt', form.querySelector('[name=prompt]').value);
    fd.append('audio', blob, 'memo' + (exts[base] || '.webm'));
    status(form, 'Sending…');
    // One id for this memo: a retry after a lost reply is answered, not stored twice.
    const headers = { 'X-CSRF-Token': form.querySelector('[name=_csrf]').value, Accept: 'application/json', 'Idempotency-Key': newId() };
    for (let attempt = 1; ; attempt++) {
      try {
        const r = await fetch(form.action, { method: 'POST', body: fd, credentials: 'same-origin', headers });
        const j = await r.json().catch(() => ({}));
        status(form, j.message || j.error || (r.ok ? 'Saved.' : 'Upload failed, please try again.'));
        return;
      } catch (_) {
        if (attempt >= 3) { status(form, 'Upload failed: no connection. Please try again.'); return; }
        status(form, 'No connection, trying again…');
        await new Promise((ok) => setTimeout(ok, 1500 * attempt));
      }
    }
  }
  // Hold-to-talk in the chat sheet: the recording is transcribed (not
  // kept) and the text sent as a typed message would be.
  async function uploadChat(form, blob) {
    const base = (blob.type || 'audio/webm').split(';')[0];
    const fd = new FormData();
    fd.append('audio', blob, 'message' + (exts[base] || '.webm'));
    status(form, 'Listening…');
    const headers = { 'X-CSRF-Token': form.querySelector('[name=_csrf]').value, Accept: 'application/json', 'Idempotency-Key': newId() };
    try {
      const r = await fetch(form.action, { method: 'POST', body: fd, credentials: 'same-origin', headers });
      const j = await r.json().catch(() => ({}));
      const box = document.querySelector('#chat-form input[name=message]');
      if (!r.ok || !j.transcript || !box) { status(form, j.error || 'That did not work; please type your message.'); return; }
      status(form, '');
      box.value = j.transcript;
      box.form.requestSubmit();
    } catch (_) {
      status(form, 'No connection; please try again.');
    }
  }
  async function start(form) {
    if (!canRecord) { status(form, 'Recording is not supported on this screen; upload a file instead.'); return; }
    if (rec) return;
    let stream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (_) {
      status(form, 'No microphone available. Type your answer instead.');
      return;
    }
    const type = types.find((t) => MediaRecorder.isTypeSupported(t)) || '';
    const mr = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    const chunks = [];
    mr.ondataavailable = (ev) => { if (ev.data && ev.data.size) chunks.push(ev.data); };
    mr.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      clearTimeout(rec && rec.limit);
      rec = null;
      showStop(form, false);
      const blob = new Blob(chunks, { type: mr.mimeType || type || 'audio/webm' });
      if (form.classList.contains('chat-voice')) uploadChat(form, blob); else upload(form, blob);
    };
    mr.start();
    rec = { mr, form, limit: setTimeout(() => mr.state === 'recording' && mr.stop(), 120000) };
    showStop(form, true);
    if (form.classList.contains('chat-voice')) {
      status(form, 'Recording… let go to send.');
      if (!talkHeld) mr.stop(); // let go before the microphone was ready
    } else {
      status(form, 'Recording… tap Stop when you are done.');
    }
  }
  document.addEventListener('pointerdown', (e) => {
    const b = e.target instanceof Element ? e.target.closest('.chat-talk') : null;
    if (!b) return;
    e.preventDefault();
    talkHeld = true;
    start(b.closest('.chat-voice'));
  });
  const release = () => { talkHeld = false; if (rec && rec.form.classList.contains('chat-voice') && rec.mr.state === 'recording') rec.mr.stop(); };
  document.addEventListener('pointerup', release);
  document.addEventListener('pointercancel', release);
  document.addEventListener('click', (e) => {
    const t = e.target instanceof Element ? e.target : null;
    if (!t) return;
    const r = t.closest('.voice-rec');
    if (r) { start(r.closest('.voice-form')); return; }
    const s = t.closest('.voice-stop');
    if (s && rec && rec.mr.state === 'recording') rec.mr.stop();
  });

  // Rotation: a screen whose layout rotates between members moves on to
  // the next member's dashboard after a spell without a touch (the server
  // names where, data-hearth-next; a sheet left open holds it).
  const rotate = parseInt(body.dataset.hearthRotate || '0', 10);
  const next = body.dataset.hearthNext || '';
  if (rotate > 0 && next.startsWith('/m/')) {
    let touched = Date.now();
    for (const ev of ['pointerdown', 'keydown', 'touchstart', 'wheel', 'input']) {
      document.addEventListener(ev, () => { touched = Date.now(); }, { passive: true, capture: true });
    }
    setInterval(() => {
      const open = [...document.querySelectorAll('.sheet')].some((s) => s.style.display !== 'none');
      if (open || body.classList.contains('night-on')) { touched = Date.now(); return; } // a sheet in use; the night

      if (Date.now() - touched > rotate) location.href = next;
    }, 1000);
  }

  // Playlist player: when the video ends, "Done" moves on to the next item.
  const player = document.getElementById('player');
  const done = document.getElementById('done-form');
  if (player && done && done.querySelector('[name=i]')) {
    player.addEventListener('ended', () => done.requestSubmit());
  }
})();

// Admin page helpers (Datastar does the rest): memory entries count down to
// their expiry and are marked expired the moment they pass it, so an expired
// entry is never shown as live between two server renders. No third-party code.
(() => {
  'use strict';
  const left = (ms) => {
    const s = Math.floor(ms / 1000);
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d > 0) return `in ${d}d ${h}h`;
    if (h > 0) return `in ${h}h ${m}m`;
    if (m > 0) return `in ${m}m ${s % 60}s`;
    return `in ${s}s`;
  };
  const tick = () => {
    const now = Date.now();
    // Query every tick: live patches replace the rows.
    for (const row of document.querySelectorAll('tr.memory-entry[data-expires]')) {
      const at = Date.parse(row.dataset.expires);
      if (Number.isNaN(at)) continue;
      const cd = row.querySelector('.countdown');
      if (at <= now) {
        row.classList.add('expired');
        const v = row.querySelector('.memory-value');
        if (v) v.textContent = '(expired)';
        if (cd) cd.textContent = 'expired';
        row.querySelectorAll('button, textarea, input').forEach((el) => { el.disabled = true; });
      } else if (cd) {
        cd.textContent = left(at - now);
      }
    }
  };
  tick();
  setInterval(tick, 1000);
})();

/// The style sheet and script the HTML report inlines, so the page fetches nothing.
enum HTMLReportAssets {
    static let style = """
        :root { color-scheme: light dark; --fail: #d1242f; --pass: #1a7f37; --extra: #9a6700; --line: #8884; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        header { position: sticky; top: 0; z-index: 2; padding: 12px 20px; background: Canvas;
          border-bottom: 1px solid var(--line); }
        h1 { margin: 0 0 4px; font-size: 18px; word-break: break-all; }
        .summary { margin: 0 0 8px; }
        .summary.passed strong { color: var(--pass); }
        .summary.failed strong { color: var(--fail); }
        .filters { display: flex; gap: 16px; align-items: center; flex-wrap: wrap; }
        .filters input[type=search] { padding: 4px 8px; min-width: 220px; }
        .shown { opacity: 0.7; }
        main { padding: 8px 20px 40px; }
        .pair { border: 1px solid var(--line); border-radius: 8px; margin: 16px 0; padding: 12px 16px; }
        .pair.failed, .pair.missing { border-left: 4px solid var(--fail); }
        .pair.passed { border-left: 4px solid var(--pass); }
        .pair.extra { border-left: 4px solid var(--extra); }
        h2 { margin: 0 0 8px; font-size: 15px; font-weight: 600; word-break: break-all; }
        .badge { display: inline-block; padding: 1px 8px; border-radius: 10px; color: #fff; font-size: 12px;
          text-transform: uppercase; letter-spacing: 0.04em; vertical-align: 1px; }
        .badge.passed { background: var(--pass); }
        .badge.failed, .badge.missing { background: var(--fail); }
        .badge.extra { background: var(--extra); }
        .problems { margin: 0 0 10px; padding-left: 20px; color: var(--fail); }
        .extra .problems { color: var(--extra); }
        .body { display: flex; gap: 20px; flex-wrap: wrap; align-items: flex-start; }
        .compare { flex: 1 1 480px; max-width: 900px; }
        .modes button { padding: 3px 10px; border: 1px solid var(--line); background: Canvas; color: CanvasText;
          cursor: pointer; }
        .modes button[aria-pressed=true] { background: #0969da; color: #fff; }
        .stage { position: relative; margin: 6px 0; cursor: ew-resize; touch-action: none; user-select: none;
          background: repeating-conic-gradient(#8882 0 25%, transparent 0 50%) 0 0 / 16px 16px; }
        .stage img { display: block; width: 100%; height: auto; image-rendering: pixelated; }
        .stage .over { position: absolute; inset: 0; }
        .stage .divider { position: absolute; top: 0; bottom: 0; width: 2px; margin-left: -1px; background: #fff;
          box-shadow: 0 0 0 1px #0008; pointer-events: none; }
        .compare[data-mode=onion] .divider { display: none; }
        .slider { width: 100%; }
        .legend { display: flex; justify-content: space-between; font-size: 12px; opacity: 0.7; }
        .side { flex: 1 1 320px; }
        .thumbs { display: flex; gap: 8px; flex-wrap: wrap; }
        .thumbs figure { margin: 0; width: 31%; min-width: 96px; }
        .thumbs img { width: 100%; height: auto; border: 1px solid var(--line); }
        figcaption { font-size: 12px; opacity: 0.7; }
        .metrics { border-collapse: collapse; margin: 10px 0; font-variant-numeric: tabular-nums; }
        .metrics th, .metrics td { padding: 2px 10px 2px 0; text-align: left; border-bottom: 1px solid var(--line); }
        .metrics tr.broken td { color: var(--fail); font-weight: 600; }
        .metrics tr.within td:last-child { color: var(--pass); }
        .histogram { margin: 0; }
        .bars { display: flex; align-items: flex-end; gap: 2px; height: 48px; width: 240px;
          border-bottom: 1px solid var(--line); }
        .bars span { flex: 1; background: #d1242f; min-height: 1px; }
        """

    static let script = """
        (() => {
          'use strict';
          const failedOnly = document.getElementById('failed-only');
          const nameFilter = document.getElementById('name-filter');
          const shownCount = document.getElementById('shown-count');
          function applyFilters() {
            const query = nameFilter.value.toLowerCase();
            let shown = 0;
            for (const pair of document.querySelectorAll('.pair')) {
              const visible = (!failedOnly.checked || pair.dataset.failure === 'true')
                && pair.dataset.name.toLowerCase().includes(query);
              pair.hidden = !visible;
              if (visible) shown += 1;
            }
            shownCount.textContent = String(shown);
          }
          failedOnly.addEventListener('change', applyFilters);
          nameFilter.addEventListener('input', applyFilters);
          for (const compare of document.querySelectorAll('.compare')) {
            const over = compare.querySelector('.over');
            const divider = compare.querySelector('.divider');
            const slider = compare.querySelector('.slider');
            const stage = compare.querySelector('.stage');
            const update = () => {
              const position = Number(slider.value);
              if (compare.dataset.mode === 'swipe') {
                over.style.opacity = '1';
                over.style.clipPath = `inset(0 0 0 ${position}%)`;
                divider.style.left = `${position}%`;
              } else {
                over.style.clipPath = 'none';
                over.style.opacity = String(position / 100);
              }
            };
            const follow = (event) => {
              const box = stage.getBoundingClientRect();
              slider.value = String(Math.round(100 * (event.clientX - box.left) / box.width));
              update();
            };
            slider.addEventListener('input', update);
            stage.addEventListener('pointerdown', (event) => { stage.setPointerCapture(event.pointerId); follow(event); });
            stage.addEventListener('pointermove', (event) => { if (event.buttons) follow(event); });
            for (const button of compare.querySelectorAll('button[data-mode]')) {
              button.addEventListener('click', () => {
                compare.dataset.mode = button.dataset.mode;
                for (const other of compare.querySelectorAll('button[data-mode]')) {
                  other.setAttribute('aria-pressed', String(other === button));
                }
                update();
              });
            }
            update();
          }
          applyFilters();
        })();
        """
}

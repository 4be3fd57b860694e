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

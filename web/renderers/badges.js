// Badges drawn by a renderer's own `draw` (inside the square): each word
// apart from the disc's letters and from each other, so that what a screen
// reader reads is what is seen ("SF act", not "SFact"; axe-core's
// label-content-name-mismatch).

export function drawBadges(g, S, svg, badges) {
  (badges || []).slice(0, 2).forEach((b, i) => {
    const x = i === 0 ? S - 22 : 22;
    g.append(svg('rect', { class: 'badge', x: x - 18, y: 3, width: 36, height: 22, rx: 11 }));
    const bt = svg('text', { class: 'badge-text', x, y: 19, 'text-anchor': 'middle', 'aria-hidden': 'true' });
    bt.textContent = ` ${String(b).slice(0, 3)}`;
    g.append(bt);
  });
}

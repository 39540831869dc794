// Draws the reference example's `board` (its own render() is a stub). Reads only; never writes.
(function drawBoard() {
  const lists = document.querySelectorAll('#board-view ul[data-status]');
  let last = '';
  function draw() {
    const snapshot = JSON.stringify(board);
    if (snapshot === last) return;
    last = snapshot;
    for (const ul of lists) {
      ul.replaceChildren(
        ...board.filter((t) => t.status === ul.dataset.status).map((t) => {
          const li = document.createElement('li');
          li.textContent = t.title;
          li.dataset.taskId = t.id;
          return li;
        }),
      );
    }
  }
  draw();
  setInterval(draw, 200);
})();

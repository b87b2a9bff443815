// flowbot's page: send a screenshot to api/solve, draw what was read over it, reveal flows (or Number
// Match pairs) one by one. Everything is drawn from pixel points the server sends: any board's cells.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const input = $("file");
  const drop = $("drop");
  const message = $("message");
  const result = $("result");
  const canvas = $("overlay");
  const hintButton = $("hint");
  const solveButton = $("solve");
  const hideButton = $("hide");
  const puzzleLink = $("download-puzzle");
  const pictureLink = $("download-picture");

  // The answer being shown, the screenshot as the browser decoded it, and the hints out (their
  // indexes in answer.hints, in the order they were revealed).
  let answer = null;
  let background = null;
  let revealed = [];
  let puzzleUrl = null;
  let busy = 0;

  function say(text, kind) {
    message.textContent = text;
    message.className = kind || "";
  }

  // A server message ("no board found: ...") as a sentence on the page.
  function sentence(text) {
    const trimmed = String(text || "something went wrong").trim();
    const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
    return /[.!?]$/.test(first) ? first : first + ".";
  }

  async function upload(file) {
    if (!file) return;
    const ticket = ++busy;
    say(`Reading ${file.name || "the screenshot"}…`, "busy");
    result.hidden = true;
    const form = new FormData();
    form.append("image", file, file.name || "screenshot");
    let response;
    let body;
    try {
      // Relative to the page, so that it works under any path a reverse proxy puts it at (/flowbot/).
      response = await fetch("api/solve", { method: "POST", body: form });
    } catch (error) {
      if (ticket === busy) say("The flowbot server could not be reached. Is `flowbot serve` still running?", "error");
      return;
    }
    try {
      body = await response.json();
    } catch (error) {
      if (ticket === busy) say(`The server answered ${response.status} without an explanation.`, "error");
      return;
    }
    if (ticket !== busy) return; // a newer screenshot was chosen meanwhile
    if (!response.ok) {
      say(sentence(body.error || `the server answered ${response.status}`), "error");
      return;
    }
    background = await decode(file);
    if (ticket !== busy) return;
    show(body);
  }

  // The screenshot as an image the canvas can draw, or null when this browser cannot decode it.
  async function decode(file) {
    try {
      return await createImageBitmap(file);
    } catch (error) {
      return null;
    }
  }

  function show(body) {
    answer = body;
    revealed = [];
    canvas.width = body.image.width;
    canvas.height = body.image.height;
    canvas.dataset.game = body.game;
    canvas.dataset.flows = String(body.hints.length);
    if (puzzleUrl) URL.revokeObjectURL(puzzleUrl);
    const text = JSON.stringify(body.file, null, 2) + "\n";
    puzzleUrl = URL.createObjectURL(new Blob([text], { type: "application/json" }));
    puzzleLink.href = puzzleUrl;
    puzzleLink.download = stem(body.name || "puzzle") + ".json";
    pictureLink.href = body.overlay;
    pictureLink.download = stem(puzzleLink.download) + "-solution.png";
    result.hidden = false;
    draw();
    describe();
    // On a phone the board starts below the fold: bring the message, buttons and board into view.
    message.scrollIntoView({ block: "start" });
  }

  function stem(name) {
    const base = String(name || "puzzle").replace(/\.[^.]*$/, "");
    return base.replace(/[^\w.-]+/g, "_") || "puzzle";
  }

  function isSolved() {
    return answer.status === "solved" || answer.status === "won";
  }

  const KINDS = { hexes: "Hexes board", bridges: "Bridges board", warps: "Warps board" };

  function boardText(total) {
    const rows = answer.puzzle ? answer.puzzle.length : 0;
    const cols = rows ? answer.puzzle[0].length : 0;
    if (answer.game === "numbermatch") {
      const adds = answer.adds_used ? ` (${answer.adds_used} of them "+")` : "";
      return `a Number Match board of ${rows} rows, won in ${total} moves${adds}`;
    }
    const kind = KINDS[answer.kind] || "board";
    return `a ${rows}x${cols} ${kind} with ${total} flows`;
  }

  // What to do for a Number Match move, as the phone shows the board at that move (rows from 1).
  function moveText(hint) {
    if (hint.type === "add") return 'press "+" to add the numbers';
    const [[r1, c1], [r2, c2]] = hint.cells;
    const [d1, d2] = hint.digits;
    return `tap the ${d1} in row ${r1 + 1}, column ${c1 + 1} and the ${d2} in row ${r2 + 1}, column ${c2 + 1}`;
  }

  function describe() {
    const shown = revealed.length;
    const numbers = answer.game === "numbermatch";
    const unit = numbers ? "move" : "flow";
    const total = answer.hints.length;
    const solved = isSolved();
    if (!solved) {
      say(sentence(answer.error || "flowbot read the board but could not solve it"), "error");
    } else if (shown === 0) {
      const tap = numbers ? " (the next pair to tap)" : ", tap a cell for the flow through it,";
      say(`flowbot read ${boardText(total)}. Press hint for one ${unit}${tap} or solve for all.`);
    } else if (shown < total) {
      const last = answer.hints[revealed[shown - 1]];
      if (numbers) {
        say(`Move ${last.label} of ${total}: ${moveText(last)}.`);
      } else {
        const name = last.name ? `the ${last.name} flow` : `flow ${last.label}`;
        say(`Hint ${shown} of ${total}: ${name}.`);
      }
    } else {
      say(numbers ? `The whole winning line: ${total} moves, numbered in order.` : `The whole solution: ${total} flows.`);
    }
    hintButton.disabled = !solved || shown >= total;
    solveButton.disabled = !solved || shown >= total;
    hideButton.disabled = shown === 0;
    hintButton.textContent = solved && shown < total ? `Hint (${shown + 1} of ${total})` : "Hint";
    canvas.dataset.shown = String(shown);
  }

  function cellSize() {
    if (answer.cell_size) return answer.cell_size;
    const { xs, ys } = answer.grid;
    return ((xs[xs.length - 1] - xs[0]) / (xs.length - 1) + (ys[ys.length - 1] - ys[0]) / (ys.length - 1)) / 2;
  }

  function colour(rgb) {
    return `rgb(${rgb[0]}, ${rgb[1]}, ${rgb[2]})`;
  }

  function draw() {
    const context = canvas.getContext("2d");
    context.clearRect(0, 0, canvas.width, canvas.height);
    if (background) {
      context.drawImage(background, 0, 0, canvas.width, canvas.height);
    } else {
      context.fillStyle = "#000";
      context.fillRect(0, 0, canvas.width, canvas.height);
    }
    const size = cellSize();
    const ink = answer.game === "numbermatch" ? "rgba(40, 90, 220, 0.8)" : "rgba(255, 255, 255, 0.9)";
    context.strokeStyle = ink;
    context.lineWidth = Math.max(1, size / 40);
    if (answer.grid) {
      // A square grid as read: a misplaced or missized outline shows a misreading at a glance.
      const { xs, ys } = answer.grid;
      context.beginPath();
      for (const x of xs) { context.moveTo(x, ys[0]); context.lineTo(x, ys[ys.length - 1]); }
      for (const y of ys) { context.moveTo(xs[0], y); context.lineTo(xs[xs.length - 1], y); }
      context.stroke();
    } else {
      // Any other board (hexagons, walls, bridges): a small ring at every cell's middle as read.
      for (const [, , x, y] of answer.centres || []) {
        context.beginPath();
        context.arc(x, y, Math.max(2, size / 12), 0, 2 * Math.PI);
        context.stroke();
      }
    }
    // Every endpoint as read, ringed in white, so a missed or invented dot is easy to see.
    context.lineWidth = Math.max(1.5, size / 20);
    for (const end of answer.endpoints || []) {
      for (const [x, y] of end.points) {
        context.beginPath();
        context.arc(x, y, size * 0.42, 0, 2 * Math.PI);
        context.stroke();
      }
    }
    for (const index of revealed) {
      const hint = answer.hints[index];
      if (hint.type === "pair" || hint.type === "add") drawMove(context, hint, size);
      else drawHint(context, hint, size);
    }
  }

  // A flow's pipe through its cells' middles; a step between cells far apart goes through a warp, so
  // it is drawn as two stubs out through the board's edge rather than a line across the board.
  function drawHint(context, hint, size) {
    const points = hint.points;
    context.strokeStyle = colour(hint.rgb);
    context.fillStyle = colour(hint.rgb);
    context.lineWidth = Math.max(2, size / 3);
    context.lineCap = "round";
    context.lineJoin = "round";
    context.beginPath();
    context.moveTo(points[0][0], points[0][1]);
    for (let index = 1; index < points.length; index++) {
      const [x1, y1] = points[index - 1];
      const [x2, y2] = points[index];
      const length = Math.hypot(x2 - x1, y2 - y1);
      if (length <= 1.6 * size) {
        context.lineTo(x2, y2);
        continue;
      }
      const [dx, dy] = [((x2 - x1) / length) * 0.6 * size, ((y2 - y1) / length) * 0.6 * size];
      context.lineTo(x1 - dx, y1 - dy);
      context.moveTo(x2 + dx, y2 + dy);
      context.lineTo(x2, y2);
    }
    context.stroke();
    for (const [x, y] of [points[0], points[points.length - 1]]) {
      context.beginPath();
      context.arc(x, y, size * 0.35, 0, 2 * Math.PI);
      context.fill();
    }
  }

  // A Number Match move: the two digits to tap ringed and joined, numbered; or the "+" button ringed.
  function drawMove(context, hint, size) {
    context.strokeStyle = colour(hint.rgb);
    context.fillStyle = colour(hint.rgb);
    context.lineWidth = Math.max(2, size / 10);
    context.lineCap = "round";
    const points = hint.points;
    for (const [x, y] of points) {
      context.beginPath();
      context.arc(x, y, size * 0.45, 0, 2 * Math.PI);
      context.stroke();
    }
    if (points.length === 2) {
      const [[x1, y1], [x2, y2]] = points;
      context.beginPath();
      context.moveTo(x1, y1);
      context.lineTo(x2, y2);
      context.stroke();
    }
    if (points.length) {
      const [x, y] = points[0];
      context.font = `bold ${Math.round(size * 0.5)}px system-ui, sans-serif`;
      context.textBaseline = "bottom";
      context.fillText(hint.type === "add" ? `${hint.label} +` : hint.label, x - size * 0.5, y - size * 0.45);
    }
  }

  function reveal(indexes) {
    if (!answer) return;
    for (const index of indexes) if (!revealed.includes(index)) revealed.push(index);
    draw();
    describe();
  }

  // The next hint in the server's order that is not out yet.
  hintButton.addEventListener("click", () => {
    if (!answer) return;
    const next = answer.hints.findIndex((hint, index) => !revealed.includes(index));
    if (next >= 0) reveal([next]);
  });

  solveButton.addEventListener("click", () => {
    if (answer) reveal(answer.hints.map((hint, index) => index));
  });

  hideButton.addEventListener("click", () => {
    revealed = [];
    if (answer) { draw(); describe(); }
  });

  // A tap on a cell reveals the flow through it: the one the player is stuck on. The cell is the one
  // whose middle is nearest the tap (any board: squares, hexagons), if the tap is on it.
  canvas.addEventListener("click", (event) => {
    if (!answer || answer.game !== "flow" || !isSolved()) return;
    const [x, y] = imagePoint(event);
    let best = null;
    for (const [row, col, cx, cy] of answer.centres || []) {
      const distance = Math.hypot(cx - x, cy - y);
      if (!best || distance < best.distance) best = { row, col, distance };
    }
    if (!best || best.distance > 0.75 * cellSize()) return; // a square cell's corner is 0.71 away
    const index = answer.hints.findIndex((hint) => hint.cells.some(([r, c]) => r === best.row && c === best.col));
    if (index >= 0) reveal([index]);
  });

  // Where a click falls on the screenshot, in its pixels (the canvas is scaled and letterboxed).
  function imagePoint(event) {
    const box = canvas.getBoundingClientRect();
    const scale = Math.min(box.width / canvas.width, box.height / canvas.height);
    const left = box.left + (box.width - canvas.width * scale) / 2;
    const top = box.top + (box.height - canvas.height * scale) / 2;
    return [(event.clientX - left) / scale, (event.clientY - top) / scale];
  }

  input.addEventListener("change", () => {
    upload(input.files[0]);
    input.value = ""; // choosing the same file again uploads it again
  });

  for (const name of ["dragenter", "dragover"]) {
    drop.addEventListener(name, (event) => {
      event.preventDefault();
      drop.classList.add("over");
    });
  }
  for (const name of ["dragleave", "drop"]) {
    drop.addEventListener(name, () => drop.classList.remove("over"));
  }
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) upload(file);
  });
  // A file dropped beside the zone would make the browser leave the page for the picture.
  window.addEventListener("dragover", (event) => event.preventDefault());
  window.addEventListener("drop", (event) => event.preventDefault());

  // A screenshot pasted from the clipboard (desktop) works like a chosen one.
  document.addEventListener("paste", (event) => {
    const item = [...(event.clipboardData ? event.clipboardData.items : [])].find((it) => it.type.startsWith("image/"));
    if (item) upload(item.getAsFile());
  });
})();

// flowbot's page: send a screenshot to /api/solve, draw what was read over it, reveal flows one by one.
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
      response = await fetch("/api/solve", { method: "POST", body: form });
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
    puzzleLink.download = stem(body.file && body.file.source && body.file.source.details
      ? body.file.source.details.image : "puzzle") + ".json";
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

  function describe() {
    const shown = revealed.length;
    const unit = answer.game === "numbermatch" ? "pair" : "flow";
    const total = answer.hints.length;
    const rows = answer.puzzle ? answer.puzzle.length : 0;
    const cols = rows ? answer.puzzle[0].length : 0;
    if (answer.status !== "solved") {
      say(sentence(answer.error || `flowbot read a ${rows}x${cols} board but could not solve it`), "error");
    } else if (shown === 0) {
      const size = rows ? `a ${rows}x${cols} board with ${total} ${unit}s` : `${total} ${unit}s`;
      const tap = unit === "flow" ? ", tap a cell for the flow through it," : "";
      say(`flowbot read ${size} (outlined). Press hint for one ${unit}${tap} or solve for all.`);
    } else if (shown < total) {
      const last = answer.hints[revealed[shown - 1]];
      const name = last.name ? `the ${last.name} ${unit}` : `${unit} ${last.label}`;
      say(`Hint ${shown} of ${total}: ${name}.`);
    } else {
      say(`The whole solution: ${total} ${unit}s.`);
    }
    const solved = answer.status === "solved";
    hintButton.disabled = !solved || shown >= total;
    solveButton.disabled = !solved || shown >= total;
    hideButton.disabled = shown === 0;
    hintButton.textContent = solved && shown < total ? `Hint (${shown + 1} of ${total})` : "Hint";
    canvas.dataset.shown = String(shown);
  }

  function center(row, col) {
    const { xs, ys } = answer.grid;
    return [(xs[col] + xs[col + 1]) / 2, (ys[row] + ys[row + 1]) / 2];
  }

  function cellSize() {
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
    const { xs, ys } = answer.grid;
    // The grid as read: a misplaced or missized outline shows a misreading at a glance.
    context.strokeStyle = "rgba(255, 255, 255, 0.9)";
    context.lineWidth = Math.max(1, size / 40);
    context.beginPath();
    for (const x of xs) { context.moveTo(x, ys[0]); context.lineTo(x, ys[ys.length - 1]); }
    for (const y of ys) { context.moveTo(xs[0], y); context.lineTo(xs[xs.length - 1], y); }
    context.stroke();
    // Every endpoint as read, ringed in white, so a missed or invented dot is easy to see.
    context.lineWidth = Math.max(1.5, size / 20);
    for (const end of answer.endpoints || []) {
      for (const [row, col] of end.cells) {
        const [x, y] = center(row, col);
        context.beginPath();
        context.arc(x, y, size * 0.42, 0, 2 * Math.PI);
        context.stroke();
      }
    }
    for (const index of revealed) drawHint(context, answer.hints[index], size);
  }

  function drawHint(context, hint, size) {
    const points = hint.points;
    context.strokeStyle = colour(hint.rgb);
    context.fillStyle = colour(hint.rgb);
    context.lineWidth = Math.max(2, size / 3);
    context.lineCap = "round";
    context.lineJoin = "round";
    context.beginPath();
    points.forEach(([x, y], index) => (index === 0 ? context.moveTo(x, y) : context.lineTo(x, y)));
    context.stroke();
    for (const [x, y] of [points[0], points[points.length - 1]]) {
      context.beginPath();
      context.arc(x, y, size * 0.35, 0, 2 * Math.PI);
      context.fill();
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

  // A tap on a cell reveals the flow through it: the one the player is stuck on.
  canvas.addEventListener("click", (event) => {
    if (!answer || answer.status !== "solved") return;
    const [x, y] = imagePoint(event);
    const { xs, ys } = answer.grid;
    const col = xs.findIndex((left, index) => index + 1 < xs.length && left <= x && x < xs[index + 1]);
    const row = ys.findIndex((top, index) => index + 1 < ys.length && top <= y && y < ys[index + 1]);
    if (row < 0 || col < 0) return;
    const index = answer.hints.findIndex((hint) => hint.cells.some(([r, c]) => r === row && c === col));
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

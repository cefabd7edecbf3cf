// Sounds at the table: your turn, a Stop! call, an evaluation. Off until the person turns
// them on with the switch in the header (browsers allow audio only after a gesture, and a
// table of friends may not want it); the choice is remembered. Short tones made with Web
// Audio, so there are no files to fetch. The switch's data-last says what sounded last.
import { t } from "./i18n.js";

const KEY = "stoptable:sound";
const TONES = {
  turn: [[660, 0.09], [880, 0.12]],
  stop: [[990, 0.08], [740, 0.08], [990, 0.14]],
  evaluation: [[523, 0.1], [659, 0.1], [784, 0.18]],
};

let on = false;
try {
  on = localStorage.getItem(KEY) === "1";
} catch {
  on = false;
}
let audio = null;
let button = null;

function draw() {
  if (!button) return;
  button.setAttribute("aria-pressed", String(on));
  button.textContent = t(on ? "sound.on" : "sound.off");
}

/** Sound one of TONES' kinds, if sound is on. */
export function sound(kind) {
  if (!on || !TONES[kind]) return;
  if (button) button.dataset.last = kind;
  try {
    audio = audio || new AudioContext();
    let at = audio.currentTime;
    for (const [freq, length] of TONES[kind]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + length);
      at += length;
    }
  } catch {
    /* no audio here: the switch still says what would have sounded */
  }
}

/** The switch in the page's header bar. */
export function mountSoundSwitch(bar) {
  if (!bar || button) return;
  button = document.createElement("button");
  button.type = "button";
  button.id = "sound";
  button.className = "ghost";
  button.addEventListener("click", () => {
    on = !on;
    try {
      localStorage.setItem(KEY, on ? "1" : "0");
    } catch {
      /* not remembered */
    }
    if (on && audio) audio.resume();
    draw();
  });
  draw();
  const lang = bar.querySelector(".lang-switch");
  bar.insertBefore(button, lang);
}

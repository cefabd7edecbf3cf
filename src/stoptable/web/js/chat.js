// The chat beside a table (protocol.md §8): messages by id, quick reactions for phones, a
// mute that folds it away (remembered), read-only in the replay. Names and texts are put
// in as text nodes, never markup.
import { t, num } from "./i18n.js";

const MUTE_KEY = "stoptable:chat-muted";
const REACTIONS = ["chat.quick.gl", "chat.quick.nice", "chat.quick.gg", "chat.quick.thanks", "👍", "😂", "😮"];

function muted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * @param {HTMLElement} box  the panel to fill
 * @param {object} opts  say(text) -> ack promise (absent: read-only), canSay() -> bool
 */
export function mountChat(box, opts) {
  const byId = new Map();
  let unread = 0;
  const readOnly = !opts.say;
  box.classList.add("chat");
  box.setAttribute("aria-labelledby", "chat-title");
  box.innerHTML = `<div class="chat-head"><h2 id="chat-title"></h2>
    <button type="button" class="ghost chat-mute" aria-pressed="false"></button></div>
    <ol class="chat-log" aria-live="polite" aria-relevant="additions" tabindex="0"></ol>
    <p class="chat-note small" hidden></p>
    <div class="chat-quick row"></div>
    <form class="chat-form row"><label class="chat-label"><span class="sr-only"></span>
      <input class="chat-input" maxlength="300" autocomplete="off" enterkeyhint="send"></label>
      <button type="submit" class="chat-send"></button></form>`;
  const q = (sel) => box.querySelector(sel);
  q("#chat-title").textContent = t("chat.title");
  const log = q(".chat-log");
  const note = q(".chat-note");
  const form = q(".chat-form");
  const input = q(".chat-input");
  const mute = q(".chat-mute");
  q(".chat-label .sr-only").textContent = t("chat.input");
  input.placeholder = t("chat.placeholder");
  q(".chat-send").textContent = t("chat.send");
  const quick = q(".chat-quick");
  for (const key of REACTIONS) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "ghost chat-react";
    b.textContent = key.startsWith("chat.") ? t(key) : key;
    b.setAttribute("aria-label", t("chat.react", { text: b.textContent }));
    b.addEventListener("click", () => send(b.textContent));
    quick.append(b);
  }

  function setMuted(on) {
    box.classList.toggle("muted", on);
    mute.setAttribute("aria-pressed", String(on));
    mute.textContent = on ? (unread ? t("chat.unmute_unread", { count: unread }) : t("chat.unmute")) : t("chat.mute");
    try {
      localStorage.setItem(MUTE_KEY, on ? "1" : "0");
    } catch {
      /* not remembered */
    }
    if (!on) {
      unread = 0;
      log.scrollTop = log.scrollHeight;
    }
  }
  mute.addEventListener("click", () => setMuted(!box.classList.contains("muted")));

  function allowed() {
    return !readOnly && (!opts.canSay || opts.canSay());
  }

  function sync() {
    const can = allowed();
    form.hidden = !can;
    quick.hidden = !can;
    note.hidden = can;
    note.textContent = readOnly ? t("chat.read_only") : t("chat.watching");
  }

  function showNote(text) {
    note.hidden = false;
    note.textContent = text;
    clearTimeout(showNote.timer);
    showNote.timer = setTimeout(sync, 5000);
  }

  async function send(text) {
    const clean = String(text).trim();
    if (!clean || !allowed()) return;
    const ack = await opts.say(clean);
    if (ack && ack.ok) {
      if (clean === input.value.trim()) input.value = "";
      return;
    }
    const reason = ack ? ack.reason : "not_connected";
    showNote(t(`chat.refused.${["rate", "spectator", "malformed"].includes(reason) ? reason : "failed"}`));
  }

  form.addEventListener("submit", (e) => {
    e.preventDefault();
    send(input.value);
  });

  function add(messages) {
    let added = 0;
    for (const m of messages) {
      if (!m || byId.has(m.id)) continue;
      byId.set(m.id, m);
      const li = document.createElement("li");
      li.dataset.id = String(m.id);
      const who = document.createElement("strong");
      who.className = "chat-name";
      who.textContent = m.name;
      const text = document.createElement("span");
      text.className = "chat-text";
      text.textContent = m.text;
      li.append(who, document.createTextNode(" "), text);
      // keep id order (a history may arrive after a live message)
      const after = [...log.children].find((x) => Number(x.dataset.id) > m.id);
      log.insertBefore(li, after || null);
      added++;
    }
    if (!added) return;
    if (box.classList.contains("muted")) {
      unread += added;
      mute.textContent = t("chat.unmute_unread", { count: unread });
    }
    if (!byId.size) return;
    log.scrollTop = log.scrollHeight;
    box.dataset.count = num(byId.size);
  }

  setMuted(muted());
  sync();
  return { add, sync };
}

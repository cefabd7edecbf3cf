export function mountStopIt(root) { root.textContent = "Stop it! table: coming"; return { update() {} }; }

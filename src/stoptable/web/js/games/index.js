// One view per game; the table page picks by the table's `game` and knows no other name.
import { mountStop } from "./stop.js";
import { mountStopIt } from "./stopit.js";
import { mountStopAndGo } from "./stopandgo.js";

export const GAMES = { stop: mountStop, stopit: mountStopIt, stopandgo: mountStopAndGo };

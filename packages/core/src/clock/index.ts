export { type Clock, type ClockTimer, sleep, systemClock } from "./clock.js";

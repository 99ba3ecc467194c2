// The step scripts and answers the synthetic scenario cassettes are built from
// (scripts/build-scenario-cassettes.js). Captured refs: X/… = Xvfb + gtk3-demo, H/… = headless.
const PID = 24132;
const WIN = 4194311;
const TOKEN = "s00000004:15";

const observe = { action: "observe", pid: PID, window_id: WIN };
const clickToken = { action: "click", pid: PID, window_id: WIN, element_token: TOKEN };

const LW = { tool: "list_windows", captured: "X/01_list_windows" };
const GWS = { tool: "get_window_state", captured: "X/10_get_window_state_full_no_screenshot" };
const GWS_AGAIN = { tool: "get_window_state", captured: "X/14_get_window_state_resnapshot" };
const CLICK_UNVERIFIABLE = { tool: "click", captured: "X/11_click_element_token" };

const clickWith = (effect, why) => ({
  tool: "click",
  captured: "X/11_click_element_token",
  edit: (raw) => raw.replace('"effect":"unverifiable"', effect),
  why,
});
const CLICK_CONFIRMED = clickWith('"effect":"confirmed","evidence":[{"kind":"window_change"}]', "effect confirmed with window_change evidence");
const CLICK_NOOP = clickWith(
  '"effect":"suspected_noop","escalation":{"reason":"suspected_noop","target":"pixel"}',
  "effect suspected_noop with a pixel escalation",
);

/** start_session answered for the harness's own label. */
const startSession = (revived) => ({
  tool: "start_session",
  captured: revived ? "H/16_start_session_revive" : "H/10_start_session",
  edit: (raw) => raw.replaceAll('"demo"', '"cua-contract-harness"'),
  why: "session label set to the harness's",
});

const LW_MOVED = {
  tool: "list_windows",
  captured: "X/01_list_windows",
  edit: (raw) =>
    raw
      .replace("810x656+235+72", "800x640+200+60")
      .replace('"bounds":{"height":656,"width":810,"x":235,"y":72},"height":656', '"bounds":{"height":640,"width":800,"x":200,"y":60},"height":640')
      .replace('"width":810,"window_id":4194311,"x":235,"y":72', '"width":800,"window_id":4194311,"x":200,"y":60'),
  why: "the window at the bounds set_window_frame gave it",
};

export const FLOWS = [
  {
    name: "gtk3demo-click-confirmed",
    about: "Observe the gtk3-demo window, click an element; the driver confirms the effect.",
    steps: [observe, clickToken],
    answers: [LW, GWS, CLICK_CONFIRMED],
  },
  {
    name: "gtk3demo-click-unverifiable",
    about: "Observe the gtk3-demo window, click an element by token (AT-SPI: unverifiable).",
    steps: [observe, clickToken],
    answers: [LW, GWS, CLICK_UNVERIFIABLE],
  },
  {
    name: "gtk3demo-click-noop",
    about: "Observe, click; the driver suspects the click did nothing.",
    steps: [observe, clickToken],
    answers: [LW, GWS, CLICK_NOOP],
  },

  {
    name: "gtk3demo-click-timeout",
    about: "Observe, click (the harness times out after the click landed), rebuild the session, observe again.",
    steps: [observe, clickToken, observe],
    answers: [LW, GWS, { ...CLICK_UNVERIFIABLE, as: "timeout" }, startSession(false), LW, GWS_AGAIN],
  },
  {
    name: "gtk3demo-type-text-timeout",
    about: "Observe, type text (the harness times out after it landed), rebuild the session, observe again.",
    steps: [observe, { action: "type_text", pid: PID, window_id: WIN, text: "hi" }, observe],
    answers: [LW, GWS, { tool: "type_text", captured: "X/25_type_text_pid_window", as: "timeout" }, startSession(false), LW, GWS_AGAIN],
  },
  {
    name: "gtk3demo-daemon-died",
    about: "Observe; the driver dies while reading the window; the harness rebuilds, reads again, then clicks.",
    steps: [observe, clickToken],
    answers: [LW, { ...GWS, as: "daemon_died" }, startSession(false), GWS, CLICK_UNVERIFIABLE],
  },

  {
    name: "gtk3demo-window-moved",
    about: "Observe, move the window (set_window_frame, confirmed), then a pixel click aimed from the old observation.",
    steps: [
      observe,
      { action: "set_window_frame", pid: PID, window_id: WIN, x: 200, y: 60, width: 800, height: 640 },
      { action: "click", pid: PID, window_id: WIN, x: 400, y: 300, frame: "obs-1" },
    ],
    answers: [LW, GWS, { tool: "set_window_frame", captured: "X/29_set_window_frame_confirmed" }, LW_MOVED],
  },
  {
    name: "gtk3demo-session-ended",
    about: "Observe, click after the session ended (session_ended); the harness revives it and does not re-send the click.",
    steps: [observe, clickToken, observe],
    answers: [LW, GWS, { tool: "click", captured: "H/15_click_with_ended_session" }, startSession(true), LW, GWS_AGAIN],
  },
  {
    name: "gtk3demo-click-loop",
    about: "Observe, then the same confirmed click over and over until the loop guard pauses the run.",
    steps: [observe, ...Array.from({ length: 7 }, () => clickToken)],
    answers: [LW, GWS, ...Array.from({ length: 6 }, () => CLICK_CONFIRMED)],
  },
];

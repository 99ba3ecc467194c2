import { desktopExports, startDesktop, stopDesktop } from "#src/desktop/desktop.js";
import { UserError } from "#src/errors.js";
import { defineCommand } from "#src/cli/command.js";

export const desktopCommand = defineCommand({
  command: "desktop <action> [state-dir]",
  describe: "Start or stop a throwaway X desktop (Xvfb, D-Bus, at-spi, openbox, gtk3-demo) for recording from the real runtime",
  builder: (y) =>
    y
      .positional("action", { choices: ["start", "stop"] as const, describe: "start prints the environment to export; stop tears it down by pid" })
      .positional("state-dir", { type: "string", describe: "stop: the CUA_DESKTOP_STATE directory start printed (default: $CUA_DESKTOP_STATE)" })
      .option("app", { type: "string", default: "gtk3-demo", describe: "the program to launch on the desktop (split on spaces)" })
      .option("no-app", { type: "boolean", default: false, describe: "launch no app" })
      .option("json", { type: "boolean", default: false, describe: "start: print the desktop state as one JSON document" }),
  handler: async (args) => {
    if (args.action === "stop") {
      const stateDir = typeof args["state-dir"] === "string" ? args["state-dir"] : process.env.CUA_DESKTOP_STATE;
      if (!stateDir) {
        throw new UserError("desktop stop needs the state directory", {
          code: "USAGE",
          field: "state-dir",
          fix: "Pass the CUA_DESKTOP_STATE value that `desktop start` printed, or export it.",
        });
      }
      await stopDesktop({ stateDir });
      return 0;
    }
    const app = args["no-app"] ? null : String(args.app).split(" ").filter(Boolean);
    const desktop = await startDesktop({ app });
    const { stop: _stop, ...state } = desktop;
    process.stdout.write(args.json ? `${JSON.stringify(state, null, 2)}\n` : `${desktopExports(desktop)}\n`);
    return 0;
  },
});

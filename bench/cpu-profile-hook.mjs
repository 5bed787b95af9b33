// Loaded with `node --import` (through NODE_OPTIONS, which refuses --cpu-prof) into a server:
// profiles its main thread and writes the profile to FAULTLINE_CPU_PROFILE (.cpuprofile JSON).
// bench/ingest-http-profile.ts --prof sends SIGUSR2 to start and again to stop and write; with
// FAULTLINE_CPU_PROFILE_WHOLE=1 the profile runs from start-up to exit (for a server another bench
// starts, e.g. `NODE_OPTIONS="--import …" npx tsx bench/ingest.ts`: only the process whose title
// says next-server takes it).
import { writeFileSync } from "node:fs";
import inspector from "node:inspector";

const out = process.env.FAULTLINE_CPU_PROFILE;
if (out) {
  const session = new inspector.Session();
  session.connect();
  let running = false;
  const start = () => {
    running = true;
    session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 500 }, () => session.post("Profiler.start")));
  };
  // The main thread's session answers synchronously, so this works in an 'exit' handler too.
  const stop = (file) => {
    running = false;
    session.post("Profiler.stop", (error, result) => {
      writeFileSync(file, JSON.stringify(error ? { error: String(error) } : result.profile));
    });
  };
  if (process.env.FAULTLINE_CPU_PROFILE_WHOLE === "1") {
    start();
    process.on("exit", () => {
      if (running && process.title.startsWith("next-server")) stop(`${out}.${process.pid}`);
    });
  } else {
    process.on("SIGUSR2", () => (running ? stop(out) : start()));
  }
}

// Loaded with `--import` by `npm run bench -- profile` (NODE_OPTIONS cannot carry --cpu-prof): in the process
// that runs `next start` only, starts V8's sampling profiler at once and samples the process's memory every 200 ms;
// when the process receives SIGUSR2 it writes into BENCH_PROFILE_DIR the profile, the memory sample taken at the
// peak resident set (V8's heap, external memory: PGlite's WebAssembly memory among it) and a heap snapshot for
// Chrome DevTools' Memory panel. Every other process it is loaded into is left alone.
import fs from "node:fs";
import inspector from "node:inspector";
import path from "node:path";
import v8 from "node:v8";

const dir = process.env.BENCH_PROFILE_DIR;
const isNextStart = process.argv.some((arg) => /[/\\]next(\.js)?$/.test(arg)) && process.argv.includes("start");

if (dir && isNextStart) {
  // The bench signals this process alone (never its launcher's group, whose other members would die of it).
  fs.writeFileSync(path.join(dir, `next-${process.pid}.pid`), String(process.pid));
  const session = new inspector.Session();
  session.connect();
  let peak = process.memoryUsage();
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > peak.rss) peak = now;
  }, 200);
  sampler.unref();
  session.post("Profiler.enable", () =>
    session.post("Profiler.setSamplingInterval", { interval: 200 }, () => session.post("Profiler.start")),
  );
  process.on("SIGUSR2", () => {
    session.post("Profiler.stop", (error, result) => {
      if (error) throw error;
      fs.writeFileSync(path.join(dir, `next-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
      clearInterval(sampler);
      fs.writeFileSync(path.join(dir, `next-${process.pid}.memory.json`), JSON.stringify(peak));
      v8.writeHeapSnapshot(path.join(dir, `next-${process.pid}.heapsnapshot`));
      fs.writeFileSync(path.join(dir, `next-${process.pid}.done`), String(Date.now()));
    });
  });
}

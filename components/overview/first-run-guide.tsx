"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useSyncExternalStore } from "react";
import { CopyButton } from "@/components/dashboard/copy-button";
import { setupQuery } from "@/lib/query/keys";

// Quoted for a POSIX shell when the id holds anything beyond the characters a shell leaves alone.
const shellWord = (s: string) => (/^[A-Za-z0-9._-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`);
const keyCommand = (project: string) => `npm run keys -- create --project ${shellWord(project)}`;

const curlExample = (origin: string, prefix: string) => `curl -X POST ${origin}/api/v1/ingest \\
  -H "Authorization: Bearer ${prefix}_<secret part>" \\
  -H "Content-Type: application/json" \\
  -d '{
  "resource": {"service": "support-agent", "release": "2026.11.3",
               "sdk": {"name": "faultline-runtime", "version": "0.1.0"}, "environment": "prod"},
  "records": [
    {"type": "tool_call_span", "id": "span-1", "run_id": "run-1", "call_id": "toolu_01",
     "tool": "cancel_booking", "attempt": 1, "started_at": '$(date +%s000)', "ended_at": '$(date +%s000)',
     "outcome": "failed", "code": "upstream_unavailable", "error_class": "ToolFailure",
     "retryable": true, "retry_after_ms": 2000, "backoff_ms": 2000, "decision": "retried"}
  ]
}'`;

const runtimeExample = (origin: string) => `import { Exporter, ToolRunner, defineTool, ToolFailure } from "./lib/runtime";

const exporter = new Exporter({ endpoint: "${origin}", apiKey: process.env.FAULTLINE_KEY! });
const runner = new ToolRunner({
  agent: "support-agent",
  release: "2026.11.3",
  sink: exporter,
  tools: [
    defineTool({
      name: "cancel_booking",
      async execute(args: { bookingId: string }) { /* your tool */ },
    }),
  ],
});

const run = runner.startRun();
const result = await run.call({ callId: "toolu_01", tool: "cancel_booking", args: { bookingId: "b-1" } });
run.end();
await run.drain();
await exporter.flush();`;

// The page's origin is only known in the browser. Reading it during render made the server's HTML
// (a placeholder origin) differ from the first client render: React error #418 on an empty project.
const noSubscribe = () => () => {};
const SERVER_ORIGIN = "http://127.0.0.1:3000";
const useOrigin = () => useSyncExternalStore(noSubscribe, () => window.location.origin, () => SERVER_ORIGIN);

/** Shown when a project has never received a span: how to send the first one. Never shows a key. */
export function FirstRunGuide({ project }: { project: string }) {
  const setup = useQuery(setupQuery(project));
  const origin = useOrigin();
  const prefix = setup.data?.keyPrefixes.at(-1)?.prefix ?? "flk_XXXXXXXX";
  return (
    <section className="panel guide" aria-labelledby="first-run-title" data-testid="first-run-guide">
      <h1 id="first-run-title" style={{ marginBottom: 6 }}>
        No tool calls in project “{project}” yet
      </h1>
      <p className="note" style={{ marginBottom: 12 }}>
        Faultline shows which tools fail, with which codes, and how retries behave, as soon as the first records arrive.
      </p>
      <ol>
        <li>
          <strong>An ingest key.</strong>{" "}
          {setup.data && setup.data.keyPrefixes.length > 0 ? (
            <>
              This project has {setup.data.keyPrefixes.length === 1 ? "a key" : `${setup.data.keyPrefixes.length} keys`} starting with{" "}
              {setup.data.keyPrefixes.map((k, i) => (
                <span key={k.prefix}>
                  {i > 0 && ", "}
                  <code data-testid="key-prefix">{k.prefix}</code> <CopyButton text={k.prefix} label={`Copy key prefix ${k.prefix}`} /> ({k.name})
                </span>
              ))}
              . Keys are shown once, when made; only their prefix is kept in the clear.
            </>
          ) : (
            <>This project has no active key.</>
          )}{" "}
          <Link href={`/settings/projects/${encodeURIComponent(project)}/keys`} data-testid="keys-tab-link">
            Make a key on the project’s Keys tab
          </Link>
          , or on the server: <code data-testid="key-command">{keyCommand(project)}</code> <CopyButton text={keyCommand(project)} label="Copy the key command" />
        </li>
        <li>
          <strong>Send a batch</strong> in the native wire format: <CopyButton text={curlExample(origin, prefix)} label="Copy the curl command" />
          <pre className="code" tabIndex={0} aria-label="curl command">{curlExample(origin, prefix)}</pre>
        </li>
        <li>
          <strong>Or let the runtime library record for you</strong> (<code>lib/runtime</code>): it runs the retry loop and exports every attempt.{" "}
          <CopyButton text={runtimeExample(origin)} label="Copy the runtime example" />
          <pre className="code" tabIndex={0} aria-label="Runtime example">{runtimeExample(origin)}</pre>
        </li>
        <li>
          <strong>Or see it with demo data:</strong> <code>npm run demo</code> sends a realistic mix of runs to this server.
        </li>
      </ol>
    </section>
  );
}

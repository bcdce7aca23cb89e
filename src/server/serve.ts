/**
 * The one `Deno.serve` call site: binds the console app to loopback.
 *
 * @module
 */
import { DejaError } from "../core/errors.ts";
import type { ConsoleApp } from "./create_app.ts";

/** Options for {@linkcode serveConsole}. */
export interface ServeOptions {
  /** Loopback address to bind (default `127.0.0.1`). */
  hostname?: string;
  /** Port (default 7777; 0 picks a free one). */
  port?: number;
  /** Stops the server when aborted. */
  signal?: AbortSignal;
}

/** A running server. */
export interface RunningServer {
  /** The address it listens on, e.g. `http://127.0.0.1:7777`. */
  url: string;
  /** The bound port. */
  port: number;
  /** Resolves when the server has stopped. */
  finished: Promise<void>;
  /** Stops accepting and closes open connections. */
  shutdown(): Promise<void>;
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

/**
 * A HEAD answered as the GET would be, without the body, and with that
 * body's Content-Length (RFC 9110 §8.6): Hono drops the body, and Deno
 * would then send `Content-Length: 0`.
 */
async function headOf(app: ConsoleApp, req: Request): Promise<Response> {
  const res = await app.fetch(new Request(req, { method: "GET" }));
  const headers = new Headers(res.headers);
  if (res.body) {
    headers.set("content-length", String((await res.arrayBuffer()).byteLength));
  }
  return new Response(null, {
    status: res.status,
    statusText: res.statusText,
    headers,
  });
}

/**
 * Serves the app on a loopback address.
 *
 * @param app The console app.
 * @param options Address, port, abort signal.
 * @returns The running server.
 * @throws {DejaError} CLI-E001 for a non-loopback address, SRV-E010 for a
 * port in use.
 */
export function serveConsole(
  app: ConsoleApp,
  options: ServeOptions = {},
): Promise<RunningServer> {
  const hostname = options.hostname ?? "127.0.0.1";
  if (!LOOPBACK.has(hostname)) {
    throw new DejaError(
      "CLI-E001",
      `deja ui binds loopback only; "${hostname}" is not 127.0.0.1, ::1 or localhost`,
    );
  }
  const wanted = options.port ?? 7777;
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port: wanted,
      ...(options.signal ? { signal: options.signal } : {}),
      // Silence Deno's own "Listening on" line: deja ui prints its notice.
      onListen: () => {},
    }, (req) => req.method === "HEAD" ? headOf(app, req) : app.fetch(req));
  } catch (err) {
    if (err instanceof Deno.errors.AddrInUse) {
      throw new DejaError(
        "SRV-E010",
        `Port ${wanted} is in use: pass --port N (or --port 0 for a free one)`,
        {
          cause: err,
        },
      );
    }
    throw err;
  }
  const port = server.addr.port;
  app.listening(port);
  const host = hostname.includes(":") ? `[${hostname}]` : hostname;
  return Promise.resolve({
    url: `http://${host}:${port}`,
    port,
    finished: server.finished,
    shutdown: () => server.shutdown(),
  });
}

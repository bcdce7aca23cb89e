/**
 * Serving the MCP server over stdio: JSON-RPC on stdout and nothing else
 * there — logs go to the context's log (stderr).
 *
 * @module
 */
import process from "node:process";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "../core/errors.ts";
import { createMcpServer } from "./create_mcp_server.ts";
import type { McpContext } from "./mcp_context.ts";

/**
 * Runs the server on stdin/stdout until the client closes the connection.
 * A missing or old index starts a background refresh at once.
 *
 * @param ctx The server context.
 * @returns When the connection closes.
 */
export async function serveMcpStdio(ctx: McpContext): Promise<void> {
  // Building the instructions opens the index once: a missing, old or
  // unreadable one starts its background pass before any call.
  const server = createMcpServer(ctx);
  const transport = new StdioServerTransport();
  // The transport drops a line that is not JSON-RPC before the server sees
  // it. Say so on stderr and answer as JSON-RPC asks (-32700 not JSON,
  // -32600 not a message), so a client is not left waiting in silence.
  transport.onerror = (err: Error) => {
    const notJson = err instanceof SyntaxError;
    const invalid = err.name === "ZodError";
    ctx.log(
      `deja mcp: ${
        notJson
          ? `ignored a line that is not JSON (${messageOf(err)})`
          : invalid
          ? "ignored a line that is not a JSON-RPC message"
          : messageOf(err)
      }`,
    );
    if (!notJson && !invalid) return;
    const error = notJson
      ? { code: -32700, message: "Parse error: the line is not JSON" }
      : { code: -32600, message: "Invalid Request: not a JSON-RPC message" };
    // JSON-RPC 2.0 wants `"id": null` when the request's id could not be
    // read; the SDK's types know only string and number ids.
    transport.send(
      { jsonrpc: "2.0", id: null, error } as unknown as JSONRPCMessage,
    ).catch(() => {});
  };
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    // End of stdin is how a stdio client hangs up; the transport does not
    // report it, so close from here and exit 0 rather than leave a dangling
    // top-level await.
    process.stdin.once("end", () => void server.close().then(resolve, resolve));
    process.stdin.once(
      "close",
      () => void server.close().then(resolve, resolve),
    );
  });
  await server.connect(transport);
  ctx.log(
    `deja mcp: serving on stdio as ${ctx.actor} (scopes ${
      ctx.scopes.join(",")
    })`,
  );
  await closed;
}

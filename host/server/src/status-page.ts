/** The facts the status page shows. */
export interface StatusFacts {
  readonly version: string;
  /** Where the sessions are kept (the journal store's location). */
  readonly location: string;
  readonly sessionCount: number;
  /** The base URL RPCs are served under, e.g. `http://127.0.0.1:7420`. */
  readonly baseUrl: string;
  readonly tokenRequired: boolean;
}

/**
 * The plain HTML page `/` serves while no web client bundle is built: what is running
 * and how to reach its RPCs with `buf curl` or `curl`. Every value is HTML-escaped.
 */
export function renderStatusPage(facts: StatusFacts): string {
  const auth = facts.tokenRequired ? ` -H 'Authorization: Bearer <token>'` : '';
  const method = `${facts.baseUrl}/dsh.session.v1.SessionService/ListSessions`;
  const bufCurl = `buf curl --protocol connect --schema proto${auth} ${method}`;
  const curl =
    `curl${auth} -H 'Content-Type: application/json' -d '{}' ` +
    `${facts.baseUrl}/dsh.session.v1.SessionService/DescribeHost`;
  const grpc = `buf curl --protocol grpc --http2-prior-knowledge --schema proto${auth} ${method}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>dsh host</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem}
pre{background:#f4f4f4;padding:.6rem;overflow-x:auto}td{padding:0 1rem 0 0}</style></head>
<body>
<h1>dsh host</h1>
<p>The dsh host is running. The web client is not built yet: build
<code>client-web</code> (its bundle goes to <code>client-web/dist</code>) and reload this page.</p>
<table>
<tr><td>Version</td><td>${escape(facts.version)}</td></tr>
<tr><td>Sessions kept in</td><td><code>${escape(facts.location)}</code></td></tr>
<tr><td>Sessions</td><td>${facts.sessionCount}</td></tr>
<tr><td>RPC base URL</td><td><code>${escape(facts.baseUrl)}</code></td></tr>
<tr><td>Protocols</td><td>Connect and gRPC-Web over HTTP/1.1, gRPC over h2c, one port</td></tr>
<tr><td>Auth</td><td>${facts.tokenRequired ? 'token required (Authorization: Bearer &lt;token&gt;)' : 'none (loopback only)'}</td></tr>
</table>
<h2>Try it</h2>
<p>From the repository root (the schema is in <code>proto/</code>):</p>
<pre>${escape(bufCurl)}</pre>
<pre>${escape(grpc)}</pre>
<p>Or with plain curl (Connect protocol, JSON):</p>
<pre>${escape(curl)}</pre>
</body>
</html>
`;
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// The read API (schemas/openapi.yaml) as the page uses it. The browser
// sends the sign-in cookie by itself; nothing here holds a key.

export class APIError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function checked(response) {
  if (response.ok) return response;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && body.error) message = body.error;
  } catch (_) { /* not JSON: keep the status line */ }
  if (response.status === 401) window.location.reload();
  throw new APIError(response.status, message);
}

/** GET a JSON answer. */
export async function getJSON(path) {
  return (await checked(await fetch(path, { credentials: 'same-origin' }))).json();
}

/** GET an NDJSON answer as an array of objects. */
export async function getNDJSON(path) {
  const text = await (await checked(await fetch(path, { credentials: 'same-origin' }))).text();
  return text.split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line));
}

/** POST a JSON question, the answer as JSON. */
export async function postJSON(path, body) {
  const response = await fetch(path, {
    method: 'POST', credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return (await checked(response)).json();
}

/** A path segment or query value, escaped. */
export const q = encodeURIComponent;

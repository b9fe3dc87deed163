// The start page: tells whether the server and its database answer.
// It talks only to the JSON API, as every page of the board will.

const statusEl = document.getElementById('status');

async function checkHealth() {
  try {
    const res = await fetch('/api/health', { headers: { Accept: 'application/json' } });
    const body = await res.json();
    if (res.ok) {
      statusEl.textContent = `Up (version ${body.version}); the database answers.`;
      statusEl.className = 'ok';
    } else {
      statusEl.textContent = 'The server is up, but its database does not answer. Try again in a minute.';
      statusEl.className = 'bad';
    }
  } catch (err) {
    statusEl.textContent = 'The server does not answer. Check your connection and reload.';
    statusEl.className = 'bad';
  }
}

checkHealth();

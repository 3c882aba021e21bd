/** Scripts one swap's outcome on a running simulator, as tests and operators do: `POST /__sim/scripts`. */
export async function scriptOutcome(simulatorUrl: string, key: string, outcome: string): Promise<number> {
  const response = await fetch(`${simulatorUrl}/__sim/scripts`, {
    method: 'POST',
    body: JSON.stringify({ scripts: [{ key, outcome }] }),
  });
  return response.status;
}

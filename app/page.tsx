export default function Home() {
  return (
    <main>
      <h1>Switchyard</h1>
      <p>Cross-chain swap routing across THORChain, Chainflip, Relay and LI.FI.</p>
      <p>
        Integrators: the public API lives under <code>/api/v1</code>.
      </p>
    </main>
  );
}

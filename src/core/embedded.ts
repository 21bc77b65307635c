// The target a run starts itself when the profile names none. The engine knows it only by this shape; the composition
// roots (src/compose.ts) pass the bundled simulator, so the harness never imports simulator/.

/** What the run asks of the target it starts: its seed and the throwaway credentials it made up. */
export interface EmbeddedTargetRequest {
  seed: number;
  clientId: string;
  clientSecret: string;
}

export interface EmbeddedTarget {
  /** The spec's {base_url}. */
  readonly baseUrl: string;
  /** A bearer token of the client that has already expired, so the expiry case runs without waiting. */
  expiredToken(): string | Promise<string>;
  /** The {id} of an ATS job offer the target holds, so the case that reads one runs (fixtures.atsJobOfferIds). */
  atsJobOfferFixtureIds?(): string[];
  close(): Promise<void>;
}

/** Starts a target in this process, on a free loopback port. */
export type StartEmbeddedTarget = (request: EmbeddedTargetRequest) => Promise<EmbeddedTarget>;

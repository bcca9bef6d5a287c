/** Whether a Docker (or compatible) engine answers, and if not, why — for the resolution error message. */
export type DockerEngine = { readonly answers: true } | { readonly answers: false; readonly reason: string };

/**
 * Asks testcontainers' own runtime discovery (DOCKER_HOST, docker contexts, the default socket, …),
 * so "Docker answers" means exactly "testcontainers can start a container". Loaded lazily: runs that
 * never need containers do not pay for importing testcontainers.
 */
export async function probeDockerEngine(): Promise<DockerEngine> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return { answers: true };
  } catch (error) {
    return { answers: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

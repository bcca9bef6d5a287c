import { missingResource, permission, transient, validation } from './error-meaning.js';
import type { ProviderGroup } from './provider-table.js';

/**
 * Container registries: the OCI Distribution Specification's error codes (the "code" of each entry in an error body's
 * "errors" array; crane, skopeo and go-containerregistry print "MANIFEST_UNKNOWN: manifest unknown"), which Docker Hub,
 * GHCR, Quay, Harbor and the CNCF distribution registry answer with. Read only under a declared registry provider:
 * DENIED, UNAUTHORIZED and UNSUPPORTED are common words, NAME_UNKNOWN and BLOB_UNKNOWN say little elsewhere.
 * MANIFEST_BLOB_UNKNOWN is not listed: it answers a manifest push that references a blob the registry lacks, which
 * pushing the blob first repairs, so it is neither an absent target nor a malformed request.
 */
export const OCI_DISTRIBUTION: ProviderGroup = {
  provider: 'oci',
  aliases: ['docker', 'dockerhub', 'docker-hub', 'ghcr', 'quay', 'harbor', 'container-registry', 'distribution'],
  source: 'https://github.com/opencontainers/distribution-spec/blob/main/spec.md#error-codes',
  entries: [
    [missingResource(), ['BLOB_UNKNOWN', 'BLOB_UPLOAD_UNKNOWN', 'MANIFEST_UNKNOWN', 'NAME_UNKNOWN']],
    [
      validation(),
      ['BLOB_UPLOAD_INVALID', 'DIGEST_INVALID', 'MANIFEST_INVALID', 'NAME_INVALID', 'SIZE_INVALID', 'UNSUPPORTED'],
    ],
    [permission(), ['DENIED', 'UNAUTHORIZED']],
    [transient('rejected'), ['TOOMANYREQUESTS']],
  ],
};

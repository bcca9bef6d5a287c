import { describe, expect, it } from 'vitest';
import { messageMeaning } from './message-text.js';
import { proxyReplyMeaning } from './proxy-reply.js';
import { appliedInPart, sideEffectBoundary } from './side-effect-boundary.js';
import { outcome } from './spec-support/outcome.js';

const ENVOY = 'upstream connect error or disconnect/reset before headers. reset reason: ';

describe("proxyReplyMeaning: Envoy's 503 local replies by their reset reason", () => {
  it('reads a request Envoy never forwarded as not sent, an upstream REFUSED_STREAM as a refusal', () => {
    const effect = (text: string) => proxyReplyMeaning(503, text)?.effect;
    expect(effect(`${ENVOY}connection failure, transport failure reason: delayed connect error: 111`)).toBe('not_sent');
    expect(effect(`${ENVOY}connection timeout`)).toBe('not_sent');
    expect(effect(`${ENVOY}overflow`)).toBe('not_sent');
    expect(effect('no healthy upstream')).toBe('not_sent');
    expect(effect(`${ENVOY}remote refused stream reset`)).toBe('rejected');
  });

  it('leaves resets after forwarding, other statuses and other texts to the status', () => {
    expect(proxyReplyMeaning(503, `${ENVOY}connection termination`)).toBeNull();
    expect(proxyReplyMeaning(503, `${ENVOY}remote reset`)).toBeNull();
    expect(proxyReplyMeaning(503, `${ENVOY}protocol error`)).toBeNull();
    expect(proxyReplyMeaning(502, `${ENVOY}connection failure`)).toBeNull();
    expect(proxyReplyMeaning(503, 'the cache reported no healthy upstream for a while')).toBeNull();
    expect(proxyReplyMeaning(503, null)).toBeNull();
  });
});

describe('appliedInPart: answers that say part of the request was applied', () => {
  const applied = (httpStatus: number | null, message: string | null) =>
    appliedInPart(outcome({ error: { httpStatus, message } }).error);

  it('reads 207 and the documented bulk answers with an applied part', () => {
    expect(applied(207, 'Multi-Status')).toBe(true);
    expect(applied(200, '{"took":3,"errors":true,"items":[{"index":{"status":201}},{"index":{"status":429}}]}')).toBe(
      true,
    );
    expect(
      applied(
        200,
        '{"compositeResponse":[{"httpStatusCode":201,"referenceId":"a"},{"httpStatusCode":400,"referenceId":"b"}]}',
      ),
    ).toBe(true);
    expect(applied(null, '{"UnprocessedItems":{"Orders":[{"PutRequest":{"Item":{}}}]}}')).toBe(true);
    expect(
      applied(200, '{"Failed":[{"Id":"m2","SenderFault":false}],"Successful":[{"Id":"m1","MessageId":"x"}]}'),
    ).toBe(true);
  });

  it('does not read a bare 200 refusal (Slack, GraphQL) or a batch that applied nothing', () => {
    expect(applied(200, '{"ok":false,"error":"channel_not_found"}')).toBe(false);
    expect(applied(200, '{"data":null,"errors":[{"message":"Cannot query field \\"x\\""}]}')).toBe(false);
    expect(applied(200, '{"took":3,"errors":false,"items":[{"index":{"status":201}}]}')).toBe(false);
    expect(applied(200, '{"UnprocessedItems":{}}')).toBe(false);
    expect(
      applied(200, '{"Failed":[{"Id":"m1","SenderFault":true,"Code":"InvalidParameterValue"}],"Successful":[]}'),
    ).toBe(false);
    expect(
      applied(200, '{"compositeResponse":[{"httpStatusCode":400,"body":[{"errorCode":"PROCESSING_HALTED"}]}]}'),
    ).toBe(false);
    expect(applied(400, '{"errors":true,"items":[]}')).toBe(false);
    expect(applied(200, null)).toBe(false);
  });
});

describe('messageMeaning: sockets closed and HTTP/2 streams reset mid-request', () => {
  it("reads undici's 'other side closed' and a non-REFUSED_STREAM reset as indeterminate", () => {
    expect(messageMeaning('other side closed')?.effect).toBe('indeterminate');
    expect(messageMeaning('Stream closed with error code NGHTTP2_INTERNAL_ERROR')?.effect).toBe('indeterminate');
    expect(messageMeaning('Stream closed with error code NGHTTP2_REFUSED_STREAM')?.effect).toBe('rejected');
  });
});

describe('sideEffectBoundary: an intermediary that answered it never forwarded the request', () => {
  const sent = { requestSent: true, responseReceived: true };
  it('keeps the not-sent proof of an HTTP answer (Cloudflare 522) on a POST the producer saw leave', () => {
    const o = outcome({ call: { httpMethod: 'POST' }, error: { httpStatus: 522 }, dispatch: sent });
    const boundary = sideEffectBoundary(o.call, o);
    expect(boundary.value).toBe(false);
    expect(boundary.evidence).toContain('dispatch:not_forwarded_by_intermediary');
  });

  it('still distrusts a connect-phase errno once the producer saw the request leave', () => {
    const o = outcome({
      call: { httpMethod: 'POST' },
      error: { errno: 'ECONNREFUSED', message: 'connect ECONNREFUSED 10.0.0.1:443' },
      dispatch: { requestSent: true },
    });
    const boundary = sideEffectBoundary(o.call, o);
    expect(boundary.value).toBe(true);
    expect(boundary.evidence).toContain('dispatch:sent_despite_connect_error');
  });
});

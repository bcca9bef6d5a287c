/** kafkajs-snappy ships no types: a factory of a kafkajs codec (compress an Encoder, decompress a Buffer). */
declare module 'kafkajs-snappy' {
  const snappyCodec: () => {
    compress(encoder: { buffer: Buffer }): Promise<Buffer>;
    decompress(buffer: Buffer): Promise<Buffer>;
  };
  export default snappyCodec;
}

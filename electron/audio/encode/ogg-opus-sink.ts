/** Opus in Ogg: packets from this thread go straight into Mediabunny's Ogg muxer, page by page. */
import { EncodedAudioPacketSource, OggOutputFormat, type EncodedPacket } from 'mediabunny';
import { collectedOutput } from './mediabunny-output';
import { OGG_OPUS_RATE, OpusPackets } from './opus-packets';
import type { EncoderSink } from './sink';

/** Pages are flushed at least this often, so a streamed sentence is not held back by page size. */
const MAX_PAGE_SECONDS = 0.5;

export async function oggOpusSink(sampleRate: number, bitrate: number): Promise<EncoderSink> {
  const opus = new OpusPackets(sampleRate, bitrate);
  const { output, take, cancel } = collectedOutput(new OggOutputFormat({ maximumPageDuration: MAX_PAGE_SECONDS }));
  const source = new EncodedAudioPacketSource('opus');
  output.addAudioTrack(source);
  await output.start();
  let header: EncodedAudioChunkMetadata | undefined = {
    decoderConfig: { codec: 'opus', numberOfChannels: 1, sampleRate: OGG_OPUS_RATE, description: opus.opusHead() },
  };
  const mux = async (packets: EncodedPacket[]) => {
    for (const packet of packets) {
      await source.add(packet, header);
      header = undefined;
    }
  };
  return {
    async push(samples) {
      await mux(opus.push(samples));
      return take();
    },
    async finish() {
      await mux(opus.finish());
      await output.finalize();
      return take();
    },
    close: cancel,
  };
}

/*
 * enetpeer: a small program on the reference ENet C library (libenet),
 * driven by the Go tests of package enet.
 *
 *   enetpeer server PORT [options]
 *   enetpeer client HOST PORT [options]
 *   enetpeer compress | decompress
 *
 * compress and decompress run ENet's range coder over standard input
 * (at most 64 KiB) and write the result to standard output.
 *
 * Options:
 *   -compress        use enet_host_compress_with_range_coder
 *   -checksum        use enet_crc32
 *   -channels N      channels to ask for / allow (default 4)
 *   -data D          connect data of the client (default 0)
 *   -echo            send every received packet back, same channel and flags
 *   -sink            only count packets, and answer a packet "done" with "done N S",
 *                    N the packets received before it (a benchmark's end)
 *                    and S the seconds from the first of them to the last
 *   -send N SIZE F   after connecting, send N packets of SIZE bytes with
 *                    flags F (r reliable, u unreliable, s unsequenced,
 *                    f unreliable fragments), cycling over the channels,
 *                    then a reliable "done" on channel 0
 *   -bench N SIZE F  as client: send N packets as fast as the window
 *                    allows and print "bench N SECONDS RECEIVED SPAN",
 *                    RECEIVED the packets the sink counted and SPAN the
 *                    seconds it saw them over
 *   -seconds S       give up after S seconds (default 20)
 *   -mtu M           host MTU
 *
 * It prints one line per event on stdout:
 *   connect DATA / receive CHANNEL LENGTH SUM FLAGS / disconnect DATA
 * where SUM is the FNV-1a hash of the packet, and exits on disconnect. A
 * received packet "bye" makes it disconnect (enet_peer_disconnect_later).
 */
#include <enet/enet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static unsigned fnv(const unsigned char *p, size_t n) {
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 16777619u;
	}
	return h;
}

static void fill(unsigned char *p, size_t n, unsigned seed) {
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
	if (n >= 4) {
		p[0] = seed & 0xFF; p[1] = (seed >> 8) & 0xFF; p[2] = (seed >> 16) & 0xFF; p[3] = (seed >> 24) & 0xFF;
	}
}

static enet_uint32 parse_flags(const char *s) {
	enet_uint32 f = 0;
	for (; *s; s++) {
		if (*s == 'r') f |= ENET_PACKET_FLAG_RELIABLE;
		if (*s == 's') f |= ENET_PACKET_FLAG_UNSEQUENCED;
		if (*s == 'f') f |= ENET_PACKET_FLAG_UNRELIABLE_FRAGMENT;
	}
	return f;
}

static double now_seconds(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	int server, compress = 0, checksum = 0, echo = 0, sink = 0, channels = 4, seconds = 20, mtu = 0;
	enet_uint32 data = 0;
	long send_n = 0, send_size = 0, bench_n = 0, bench_size = 0;
	enet_uint32 send_flags = 0, bench_flags = 0;
	const char *host_name = NULL;
	int port, i;
	if (argc == 2 && (!strcmp(argv[1], "compress") || !strcmp(argv[1], "decompress"))) {
		static unsigned char in[65536], out[65536 * 2];
		size_t n = fread(in, 1, sizeof in, stdin), m;
		void *rc = enet_range_coder_create();
		if (!strcmp(argv[1], "compress")) {
			ENetBuffer b;
			b.data = in;
			b.dataLength = n;
			m = enet_range_coder_compress(rc, &b, 1, n, out, sizeof out);
		} else {
			m = enet_range_coder_decompress(rc, in, n, out, sizeof out);
		}
		fwrite(out, 1, m, stdout);
		enet_range_coder_destroy(rc);
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: enetpeer server PORT | client HOST PORT [options]\n");
		return 2;
	}
	server = strcmp(argv[1], "server") == 0;
	if (server) {
		port = atoi(argv[2]);
		i = 3;
	} else {
		if (argc < 4) return 2;
		host_name = argv[2];
		port = atoi(argv[3]);
		i = 4;
	}
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-compress")) compress = 1;
		else if (!strcmp(argv[i], "-checksum")) checksum = 1;
		else if (!strcmp(argv[i], "-echo")) echo = 1;
		else if (!strcmp(argv[i], "-sink")) sink = 1;
		else if (!strcmp(argv[i], "-channels") && i + 1 < argc) channels = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-data") && i + 1 < argc) data = (enet_uint32)strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "-seconds") && i + 1 < argc) seconds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-mtu") && i + 1 < argc) mtu = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-send") && i + 3 < argc) {
			send_n = atol(argv[++i]);
			send_size = atol(argv[++i]);
			send_flags = parse_flags(argv[++i]);
		} else if (!strcmp(argv[i], "-bench") && i + 3 < argc) {
			bench_n = atol(argv[++i]);
			bench_size = atol(argv[++i]);
			bench_flags = parse_flags(argv[++i]);
		} else {
			fprintf(stderr, "unknown option %s\n", argv[i]);
			return 2;
		}
	}
	if (enet_initialize() != 0) return 1;

	ENetAddress address;
	ENetHost *host;
	ENetPeer *peer = NULL;
	if (server) {
		address.host = ENET_HOST_ANY;
		address.port = (enet_uint16)port;
		host = enet_host_create(&address, 32, channels, 0, 0);
	} else {
		host = enet_host_create(NULL, 1, channels, 0, 0);
	}
	if (host == NULL) {
		fprintf(stderr, "enet_host_create failed\n");
		return 1;
	}
	if (mtu) host->mtu = mtu;
	if (compress) enet_host_compress_with_range_coder(host);
	if (checksum) host->checksum = enet_crc32;
	if (server) {
		/* The port actually bound, for PORT 0. */
		ENetAddress bound;
		enet_socket_get_address(host->socket, &bound);
		printf("listening %u\n", bound.port);
		fflush(stdout);
	} else {
		enet_address_set_host(&address, host_name);
		address.port = (enet_uint16)port;
		peer = enet_host_connect(host, &address, channels, data);
		if (peer == NULL) return 1;
	}

	double deadline = now_seconds() + seconds;
	double bench_start = 0;
	long bench_sent = 0, bench_acked_round = 0, sink_received = 0;
	double sink_first = 0, sink_last = 0;
	int bench_done = 0;
	ENetEvent event;
	while (now_seconds() < deadline) {
		int r = enet_host_service(host, &event, bench_n && peer && peer->state == ENET_PEER_STATE_CONNECTED ? 0 : 5);
		if (r < 0) {
			fprintf(stderr, "enet_host_service failed\n");
			return 1;
		}
		if (r == 0) {
			if (bench_n && peer && peer->state == ENET_PEER_STATE_CONNECTED && !bench_done) {
				/* Keep about 256 KiB queued. */
				while (bench_sent < bench_n && peer->reliableDataInTransit < 1 << 20 &&
				       enet_list_size(&peer->outgoingCommands) < 256) {
					ENetPacket *pk = enet_packet_create(NULL, bench_size, bench_flags);
					memset(pk->data, (int)bench_sent, bench_size);
					enet_peer_send(peer, 0, pk);
					bench_sent++;
				}
				if (bench_sent == bench_n) {
					ENetPacket *pk = enet_packet_create("done", 4, ENET_PACKET_FLAG_RELIABLE);
					enet_peer_send(peer, 0, pk);
					bench_done = 1;
				}
				enet_host_flush(host);
			}
			continue;
		}
		switch (event.type) {
		case ENET_EVENT_TYPE_CONNECT:
			printf("connect %u\n", event.data);
			fflush(stdout);
			peer = event.peer;
			if (bench_n) bench_start = now_seconds();
			for (long k = 0; k < send_n; k++) {
				ENetPacket *pk = enet_packet_create(NULL, send_size, send_flags);
				fill(pk->data, send_size, (unsigned)k);
				enet_peer_send(peer, (enet_uint8)(k % peer->channelCount), pk);
			}
			if (send_n) {
				ENetPacket *pk = enet_packet_create("done", 4, ENET_PACKET_FLAG_RELIABLE);
				enet_peer_send(peer, 0, pk);
			}
			break;
		case ENET_EVENT_TYPE_RECEIVE:
			if (sink) {
				if (event.packet->dataLength == 4 && !memcmp(event.packet->data, "done", 4)) {
					char msg[64];
					int n = snprintf(msg, sizeof msg, "done %ld %.6f", sink_received, sink_last - sink_first);
					enet_peer_send(event.peer, 0, enet_packet_create(msg, (size_t)n, ENET_PACKET_FLAG_RELIABLE));
					sink_received = 0;
				} else {
					sink_last = now_seconds();
					if (sink_received++ == 0) sink_first = sink_last;
				}
				enet_packet_destroy(event.packet);
				break;
			}
			printf("receive %u %u %08x %u\n", event.channelID, (unsigned)event.packet->dataLength,
			       fnv(event.packet->data, event.packet->dataLength), event.packet->flags & 3);
			fflush(stdout);
			if (event.packet->dataLength == 3 && !memcmp(event.packet->data, "bye", 3)) {
				enet_peer_disconnect_later(event.peer, 7);
			} else if (bench_n && event.packet->dataLength >= 4 && !memcmp(event.packet->data, "done", 4)) {
				char got[64] = "";
				size_t n = event.packet->dataLength - 4 < sizeof got - 1 ? event.packet->dataLength - 4 : sizeof got - 1;
				memcpy(got, event.packet->data + 4, n);
				char *rest;
				long received = strtol(got, &rest, 10);
				double span = strtod(rest, NULL); /* 0 when the sink did not say */
				printf("bench %ld %.6f %ld %.6f\n", bench_n, now_seconds() - bench_start, received, span);
				fflush(stdout);
				enet_peer_disconnect_later(event.peer, 0);
			} else if (echo) {
				ENetPacket *pk = enet_packet_create(event.packet->data, event.packet->dataLength,
				                                    event.packet->flags & (ENET_PACKET_FLAG_RELIABLE | ENET_PACKET_FLAG_UNSEQUENCED));
				enet_peer_send(event.peer, event.channelID, pk);
			}
			enet_packet_destroy(event.packet);
			break;
		case ENET_EVENT_TYPE_DISCONNECT:
			printf("disconnect %u\n", event.data);
			fflush(stdout);
			enet_host_flush(host);
			enet_host_destroy(host);
			enet_deinitialize();
			return 0;
		default:
			break;
		}
	}
	(void)bench_acked_round;
	printf("timeout\n");
	fflush(stdout);
	enet_host_destroy(host);
	enet_deinitialize();
	return 3;
}

package enet

import (
	"testing"
	"time"
)

// TestTrimPools: after a burst the free lists hold its peak; a trim gives
// back what stayed free since the last one and keeps what was used.
func TestTrimPools(t *testing.T) {
	srv, cli, _, cp := pair(t, nil, nil, 1)
	for i := range 600 {
		if err := cp.Send(0, []byte{byte(i), 1, 2, 3}, Reliable); err != nil {
			t.Fatal(err)
		}
	}
	got := 0
	for got < 600 {
		if ev := next(t, srv, 5*time.Second); ev.Type == EventReceive {
			got++
			srv.ReleasePacket(ev.Packet)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		cli.mu.Lock()
		n := cp.sentReliable.len() + cp.outgoingSendReliable.len()
		cli.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d packets not acknowledged", n)
		}
	}
	cli.mu.Lock()
	defer cli.mu.Unlock()
	cmds, bufs := cli.freeCmds.len(), cli.freeSendBytes
	if cmds < 100 || bufs == 0 {
		t.Fatalf("after the burst: %d free commands, %d bytes of free buffers", cmds, bufs)
	}
	cli.trimPools() // marks the lists as they are (the send loop may have trimmed once already)
	// Some used since: those stay.
	used := make([]*outCmd, 10)
	for i := range used {
		used[i] = cli.newOutCmd()
	}
	for _, oc := range used {
		cli.recycle(oc)
	}
	cli.trimPools()
	if n := cli.freeCmds.len(); n != 10 {
		t.Errorf("a trim after 10 commands were used kept %d of %d", n, cmds)
	}
	if cli.freeSendBytes != 0 || cli.chunks.n != 0 {
		t.Errorf("a trim kept %d bytes of unused buffers, %d arena chunks", cli.freeSendBytes, cli.chunks.n)
	}
	cli.trimPools()
	if n := cli.freeCmds.len(); n != 0 || cli.freeCmds.head != nil {
		t.Errorf("%d free commands left unused kept", n)
	}
	for c, s := range cli.freeSend {
		if s.len() != 0 || s.top != nil || s.spare != nil {
			t.Errorf("class %d keeps %d free buffers, or a chunk for them", sendClasses[c], s.len())
		}
	}
}

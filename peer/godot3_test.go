package peer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/variant"
)

// Godot 3.2.3 connects with StreamPeerTCP to our TCP server and exchanges
// values of every type, a PoolByteArray of several MiB and many values in a
// row, then disconnects.
func TestGodot3TCP(t *testing.T) {
	enginetest.Godot3(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l, err := ListenTCP(ctx, "127.0.0.1:0", Options{Godot: variant.Godot3, MaxSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	clientExchange(ctx, t, l, variant.Godot3, "Godot 3", func(port string) (string, string, int) {
		return enginetest.RunGodot3(t, "testdata/tcp_client3.gd", port, strconv.Itoa(interopBig), strconv.Itoa(interopMany)), "", 0
	})
}

// Godot 3.2.3's PacketPeerUDP exchanges values with our UDP socket, one per
// datagram.
func TestGodot3UDP(t *testing.T) {
	enginetest.Godot3(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	pc, err := ListenUDP(ctx, "127.0.0.1:0", Options{Godot: variant.Godot3})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	served := make(chan struct{})
	samples := len(sampleValues(variant.Godot3))
	go func() {
		defer close(served)
		for {
			v, from, err := pc.ReadValueFrom()
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				rec.mu.Lock()
				rec.errs = append(rec.errs, err)
				rec.mu.Unlock()
				if from == nil {
					return
				}
				continue
			}
			rec.add(v)
			if err := pc.WriteValueTo(answer(v, samples), from); err != nil {
				rec.mu.Lock()
				rec.errs = append(rec.errs, err)
				rec.mu.Unlock()
			}
		}
	}()
	const big = 50000 // it must fit in one datagram
	port := strconv.Itoa(pc.LocalAddr().(*net.UDPAddr).Port)
	out := enginetest.RunGodot3(t, "testdata/udp_peer3.gd", port, strconv.Itoa(big), strconv.Itoa(interopMany))
	checkScript(t, "Godot 3", out, "", 0)
	pc.Close()
	<-served
	checkReceived(t, rec, variant.Godot3, big, interopMany)
}

// Godot 3.2.3's WebSocketClient exchanges values with our WebSocket server,
// one value per binary message.
func TestGodot3WebSocket(t *testing.T) {
	enginetest.Godot3(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{Godot: variant.Godot3, MaxSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	clientExchange(ctx, t, l, variant.Godot3, "Godot 3", func(port string) (string, string, int) {
		return enginetest.RunGodot3(t, "testdata/ws_client3.gd", port, strconv.Itoa(interopBig), strconv.Itoa(interopMany)), "", 0
	})
}

// Godot 3.2.3 runs a TCP_Server that echoes with StreamPeerTCP; our DialTCP
// client sends values of every type, a large one and many in a row, and
// gets back what the engine decoded and encoded again. With big_endian set
// on the engine's side, BigEndian on ours.
func TestGodot3TCPServer(t *testing.T) {
	for _, endian := range []string{"little", "big"} {
		t.Run(endian, func(t *testing.T) {
			enginetest.Godot3(t)
			// Godot 3.2 cannot pick a free port itself: find one.
			probe, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			port := probe.Addr().(*net.TCPAddr).Port
			probe.Close()
			godot := enginetest.StartGodot3(t, "testdata/tcp_server3.gd", strconv.Itoa(port), endian)
			godot.WaitLine("LISTENING", time.Minute)

			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			o := Options{Godot: variant.Godot3, MaxSize: 16 << 20, BigEndian: endian == "big"}
			c, err := DialTCP(ctx, "127.0.0.1:"+strconv.Itoa(port), o)
			if err != nil {
				t.Fatal(err)
			}
			c.SetDeadline(time.Now().Add(time.Minute))
			want := sampleValues(variant.Godot3)
			want = append(want, pattern251(interopBig))
			for i := range interopMany {
				want = append(want, variant.Int(i))
			}
			// The values in a row, from another goroutine, while the echoes
			// are read: neither side waits for the other.
			werr := make(chan error, 1)
			go func() {
				for _, v := range want {
					if err := c.WriteValue(v); err != nil {
						werr <- err
						return
					}
				}
				werr <- nil
			}()
			for i, w := range want {
				v, err := c.ReadValue()
				if err != nil {
					t.Fatalf("echo %d: %v", i, err)
				}
				if !variant.Equal(v, w) {
					t.Errorf("echo %d: %#v, want %#v", i, v, w)
				}
			}
			if err := <-werr; err != nil {
				t.Fatal(err)
			}
			if err := c.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			out := godot.Wait()
			if want := "DONE " + strconv.Itoa(len(want)) + "\n"; !strings.HasSuffix(out, want) {
				t.Errorf("Godot 3 printed %q, want a last line %q", out, want)
			}
		})
	}
}

// A Go struct sent with Conn.Encode over a Godot 3 connection reaches
// Godot 3.2.3's StreamPeerTCP.get_var as a Dictionary with fields of the
// Godot 3 types, and the engine's answer comes back into the struct with
// Conn.Decode.
func TestGodot3Structs(t *testing.T) {
	enginetest.Godot3(t)
	probe, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := probe.Addr().(*net.TCPAddr).Port
	probe.Close()
	godot := enginetest.StartGodot3(t, "testdata/struct_server3.gd", strconv.Itoa(port))
	godot.WaitLine("LISTENING", time.Minute)

	type stats struct {
		Speed float64        `gdvar:"speed"`
		Tags  map[string]int `gdvar:"tags"`
	}
	type player struct {
		Name  string          `gdvar:"name"`
		HP    int             `gdvar:"hp"`
		Pos   variant.Vector2 `gdvar:"pos"`
		Items []string        `gdvar:"items"`
		Color variant.Color   `gdvar:"color"`
		Stats stats           `gdvar:"stats"`
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := DialTCP(ctx, "127.0.0.1:"+strconv.Itoa(port), Options{Godot: variant.Godot3})
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(time.Minute))
	sent := player{Name: "ada", HP: 41, Pos: variant.Vector2{X: 1.5, Y: -2}, Items: []string{"key", "map"},
		Color: variant.Color{R: 1, G: 0.5, B: 0, A: 1}, Stats: stats{Speed: 2.25, Tags: map[string]int{"elf": 1}}}
	if err := c.Encode(sent); err != nil {
		t.Fatal(err)
	}
	var got player
	if err := c.Decode(&got); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	out := godot.Wait()
	t.Logf("Godot 3 printed:\n%s", out)
	// Dictionary, String, int, Vector2, PoolStringArray, Color,
	// Dictionary, float: Godot 3's type numbers.
	if !strings.Contains(out, "TYPES 18 4 2 5 23 14 18 3\n") || !strings.HasSuffix(out, "DONE\n") {
		t.Errorf("Godot 3 printed:\n%s", out)
	}
	want := player{Name: "ADA", HP: 42, Pos: variant.Vector2{X: 3, Y: -4}, Items: []string{"key", "map", "sword"},
		Color: variant.Color{R: 0, G: 0.5, B: 1, A: 1}, Stats: stats{Speed: 4.5, Tags: map[string]int{"elf": 1}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the engine's answer: %+v, want %+v", got, want)
	}
}

package cli

import (
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"knightwatch/pgtest"
)

// TestAnalysisOnPostgres: on a site, the analysis board's lines run on
// the pool of the server holding the socket (docs/analysis.md), also on
// a server that leaves the games' engine work to workers
// (--engine-work=false): the real server on PostgreSQL answers a
// position with its legal moves, then engine lines, then their end.
func TestAnalysisOnPostgres(t *testing.T) {
	dsn := pgtest.DB(t)
	for _, args := range [][]string{nil, {"--engine-work=false"}} {
		t.Run(strings.Join(append([]string{"serve"}, args...), " "), func(t *testing.T) {
			srv := startChildServer(t, dsn, args...)
			jar, err := cookiejar.New(nil)
			if err != nil {
				t.Fatal(err)
			}
			hc := &http.Client{Jar: jar, Timeout: 30 * time.Second}
			resp, err := hc.Get(srv.URL() + "/analysis")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("/analysis: %s", resp.Status)
			}
			d := websocket.Dialer{Jar: jar, HandshakeTimeout: 30 * time.Second}
			c, _, err := d.Dial("ws"+strings.TrimPrefix(srv.URL(), "http")+"/ws/analysis", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"position","id":1,"moves":["e4"],"engine":true,"multipv":2}`)); err != nil {
				t.Fatal(err)
			}
			c.SetReadDeadline(time.Now().Add(30 * time.Second))
			var seen []string
			for {
				_, b, err := c.ReadMessage()
				if err != nil {
					t.Fatalf("after %v: %v", seen, err)
				}
				var m struct {
					Type  string `json:"type"`
					ID    int    `json:"id"`
					Text  string `json:"text"`
					Lines []struct {
						SAN []string `json:"san"`
					} `json:"lines"`
				}
				if err := json.Unmarshal(b, &m); err != nil {
					t.Fatalf("%s: %v", b, err)
				}
				seen = append(seen, m.Type)
				if m.Type == "error" {
					t.Fatalf("the server answered an error: %s", b)
				}
				if m.Type == "lines" {
					if m.ID != 1 || len(m.Lines) == 0 || len(m.Lines[0].SAN) == 0 {
						t.Fatalf("lines %s", b)
					}
					break
				}
			}
			if seen[0] != "position" {
				t.Errorf("messages %v, want the position first", seen)
			}
		})
	}
}

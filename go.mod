module github.com/gdvar/gdvar

go 1.26.0

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/gorilla/websocket v1.5.3
	github.com/klauspost/compress v1.20.3
)

require (
	golang.org/x/net v0.62.0
	golang.org/x/sys v0.49.0 // indirect
)

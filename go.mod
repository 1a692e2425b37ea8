module github.com/gdvar/gdvar

go 1.26

require (
	github.com/andybalholm/brotli v1.2.8
	github.com/gorilla/websocket v1.5.3
	github.com/klauspost/compress v1.20.3
)

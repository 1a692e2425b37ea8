# gdvar in a container: a static binary on a distroless base, run as a
# non-root user. By default the image runs `gdvar host` with rooms, the
# admin listener (metrics, /healthz, /readyz) and JSON logs:
#
#   docker build -t gdvar .
#   docker run --rm -p 9082:9082 -p 9100:9100 gdvar
#
# Build another program of the module, such as the match server of
# examples/rooms, with TARGET (and give it its flags at run time):
#
#   docker build --build-arg TARGET=./examples/rooms -t gdvar-rooms .
#   docker run --rm -p 9082:9082 -p 9100:9100 gdvar-rooms -ws 0.0.0.0:9082 -admin 0.0.0.0:9100
#
# Ports: 9082/tcp WebSocket games (ws://HOST:9082/ROOM), 9100/tcp admin,
# 7777/udp ENet when `--enet 0.0.0.0:7777` is given. docs/deploy.md has
# the Kubernetes and Agones manifests.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG TARGET=./cmd/gdvar
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/server "$TARGET"

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/server /server
USER 65532:65532
EXPOSE 9082/tcp 9100/tcp 7777/udp
# SIGTERM drains (see docs/deploy.md); give it terminationGracePeriodSeconds.
STOPSIGNAL SIGTERM
ENTRYPOINT ["/server"]
CMD ["host", "--ws", "0.0.0.0:9082", "--metrics", "0.0.0.0:9100", "--log-format", "json"]

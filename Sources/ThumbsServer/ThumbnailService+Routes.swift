import HTTPTypes
import Hummingbird
import ThumbsSettings

extension ThumbnailService {
    /// Every route of the server, in one table: the router is built from it (``router()``), the
    /// middleware reads each route's group and openness from it, and docs/openapi.json
    /// documents it (Tests/ThumbsServerTests holds the two equal). Every `GET` also answers
    /// `HEAD`, with the same fields and no body.
    var routes: [ServerRoute] {
        let page: [ServerRoute] =
            [ServerRoute(method: .get, path: "/", group: .page, isOpen: true) { request, _ in try self.page(request) }]
            + ["/page.css", "/page.js", "/thumbhash.js"].map { file in
                ServerRoute(method: .get, path: RouterPath(file), group: .page, isOpen: true) { _, _ in
                    EmbeddedPage.response(for: file)!
                }
            }
        return page + [
            ServerRoute(method: .get, path: "/healthz", group: .health, isOpen: true) { _, _ in
                try self.json(["status": "ok"])
            },
            ServerRoute(method: .get, path: "/metrics", group: .metrics) { _, _ in self.metricsResponse() },
            ServerRoute(method: .get, path: "/api/renditions", group: .api) { _, _ in try self.renditionList() },
            ServerRoute(method: .get, path: "/api/assets", group: .api) { request, _ in
                try self.assets(request, album: nil)
            },
            ServerRoute(method: .get, path: "/api/assets/{id}/burst", group: .api) { request, context in
                try self.burstFrames(request, id: context.parameters.get("id"))
            },
            ServerRoute(method: .get, path: "/api/assets/{id}/motion", group: .api) { request, context in
                try await self.motion(request, context: context)
            },
            ServerRoute(method: .get, path: "/api/albums", group: .api) { request, _ in try self.albums(request) },
            ServerRoute(method: .get, path: "/api/albums/{id}/assets", group: .api) { request, context in
                try self.assets(request, album: context.parameters.get("id"))
            },
            ServerRoute(method: .get, path: "/api/moments", group: .api) { request, _ in try self.moments(request) },
            ServerRoute(method: .get, path: "/api/moments/{day}/assets", group: .api) { request, context in
                try self.momentAssets(request, day: context.parameters.get("day"))
            },
            ServerRoute(method: .get, path: "/api/changes", group: .api) { request, _ in try self.changes(request) },
            ServerRoute(method: .post, path: "/api/preheat", group: .api) { request, context in
                try await self.preheat(request, context: context, start: true)
            },
            ServerRoute(method: .delete, path: "/api/preheat", group: .api) { request, context in
                try await self.preheat(request, context: context, start: false)
            },
            ServerRoute(
                method: .get, path: "/thumbnails/{id}/{rendition}", group: .thumbnail,
                handler: { request, context in try await self.thumbnail(request, context: context) },
                memoryAnswer: { target, captures, generation in
                    self.readyEntry(target: target, captures: captures, generation: generation)
                }),
        ]
    }

    /// The middleware every request goes through, knowing `routes` (``routes``).
    func middleware(routes: [ServerRoute]) -> ServerMiddleware {
        ServerMiddleware(
            token: configuration.token, maxTargetLength: configuration.maxTargetLength, metrics: metrics,
            routes: routes)
    }

    /// The router of ``routes``, behind the middleware every request goes through.
    func router() -> Router<ServerRequestContext> {
        let routes = routes
        let router = Router(context: ServerRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: middleware(routes: routes))
        for route in routes {
            router.on(route.path, method: route.method, use: route.handler)
        }
        return router
    }
}

/** Hash routes (`#/webhooks/12`): the page is one static file, and nothing secret is ever in the URL. */
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "keys" }
  | { page: "usage" }
  | { page: "webhooks" }
  | { page: "webhook"; id: number }
  | { page: "xpubs" }
  | { page: "operator" };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/");
  if (parts[0] === "webhooks" && parts[1] && /^\d+$/.test(parts[1])) return { page: "webhook", id: Number(parts[1]) };
  if (parts[0] === "usage" || parts[0] === "webhooks" || parts[0] === "xpubs" || parts[0] === "operator") return { page: parts[0] };
  return { page: "keys" };
}

export function hrefOf(route: Route): string {
  return route.page === "webhook" ? `#/webhooks/${route.id}` : `#/${route.page}`;
}

export function navigate(route: Route): void {
  location.hash = hrefOf(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(location.hash));
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return route;
}

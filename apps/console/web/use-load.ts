/** Loads something from the API for a component: its data, its error, and a way to load it again. */
import { useCallback, useEffect, useState } from "preact/hooks";
import type { ApiError } from "./api.ts";

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload(): Promise<void>;
}

export function useLoad<T>(load: () => Promise<T>, dependencies: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<ApiError>();
  const [loading, setLoading] = useState(true);
  const run = useCallback(load, dependencies);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await run());
      setError(undefined);
    } catch (failure) {
      setError(failure as ApiError);
    } finally {
      setLoading(false);
    }
  }, [run]);
  useEffect(() => void reload(), [reload]);
  return { data, error, loading, reload };
}

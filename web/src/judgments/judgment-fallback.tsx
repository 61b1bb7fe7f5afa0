import { Component, type ReactNode } from 'react';

/**
 * Renders its children, or `fallback` when they throw while rendering: a judgment view that meets
 * a detail its guard let through but it cannot draw leaves the raw detail, never a blank page.
 */
export class JudgmentFallback extends Component<
  { children: ReactNode; fallback: ReactNode },
  { failed: boolean }
> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

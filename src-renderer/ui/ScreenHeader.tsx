import { forwardRef, type ReactNode } from 'react'

/** Each screen's title; focused when the screen opens so keyboard and screen-reader users land on it. */
export const ScreenHeader = forwardRef<HTMLHeadingElement, { title: string; description?: ReactNode; actions?: ReactNode }>(
  function ScreenHeader({ title, description, actions }, ref) {
    return (
      <header className="screen-header">
        <div>
          <h1 ref={ref} id="screen-title" tabIndex={-1} className="screen-header__title">
            {title}
          </h1>
          {description ? <p className="screen-header__description">{description}</p> : null}
        </div>
        {actions ? <div className="screen-header__actions">{actions}</div> : null}
      </header>
    )
  },
)

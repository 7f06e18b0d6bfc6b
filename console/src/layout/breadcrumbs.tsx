import { Fragment } from 'react';
import { Link } from 'react-router';

/** Where the page is: links up to the spaces, the last item is the page itself. */
export function Breadcrumbs({ items }: { items: { label: string; to?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        {items.map((item, index) => (
          <Fragment key={index}>
            <li>{item.to ? <Link to={item.to}>{item.label}</Link> : <span aria-current="page">{item.label}</span>}</li>
          </Fragment>
        ))}
      </ol>
    </nav>
  );
}

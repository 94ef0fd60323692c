import { useState } from 'react';
import { useQuery } from 'urql';
import { usePagedFilters } from '../components/filters';
import { ListView, NotYours } from '../components/list';
import { useAction } from '../components/mutation';
import { ConfirmButton, ErrorAlert, Status, When } from '../components/ui';
import { graphql, type ResultOf } from '../graphql';
import { can, useSession } from '../session';

const ReviewFields = graphql(`
  fragment ReviewRow on Review {
    id rating title body status createdAt
    product { id name }
  }
`);

const ReviewsQuery = graphql(
  `
  query Reviews($page: Int, $status: ReviewStatus, $rating: Int) {
    reviews(page: $page, limit: 25, status: $status, rating: $rating, sortBy: status, sortDirection: asc) {
      items { ...ReviewRow }
      pagination { totalResults currentPage lastPage }
    }
  }
`,
  [ReviewFields],
);

const ModerateReview = graphql(
  `mutation ModerateReview($id: ID!, $status: ReviewStatus!) {
    moderateReview(id: $id, input: { status: $status }) { ...ReviewRow }
  }`,
  [ReviewFields],
);
const DeleteReview = graphql(`
  mutation DeleteReview($id: ID!) { deleteReview(id: $id) { id deleted } }
`);

type Review = ResultOf<typeof ReviewFields>;
const statuses = ['pending', 'approved', 'rejected'] as const;
type ReviewStatus = (typeof statuses)[number];

/** Reviews: the moderation queue, pending first; filter by status and rating; approve, reject, delete. */
export function ReviewsPage() {
  const { session } = useSession();
  const { page, setPage, filters, change } = usePagedFilters({ status: '' as ReviewStatus | '', rating: '' });
  const { status, rating } = filters;
  const [result, refetch] = useQuery({
    query: ReviewsQuery,
    variables: { page, status: status || null, rating: rating ? Number(rating) : null },
  });
  if (!session) return null;
  if (!can(session, 'REVIEWS', 'READ'))
    return (
      <NotYours title="Reviews">
        <p>Your role ({session.staff.role}) does not include the store's reviews.</p>
      </NotYours>
    );
  const moderates = can(session, 'REVIEWS', 'UPDATE');
  const deletes = can(session, 'REVIEWS', 'DELETE');
  const reload = () => refetch({ requestPolicy: 'network-only' });
  return (
    <>
      <h1>Reviews</h1>
      <div className="filters">
        <label>
          Status{' '}
          <select value={status} onChange={(e) => change({ status: e.target.value as ReviewStatus | '' })}>
            <option value="">Any (pending first)</option>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          Rating{' '}
          <select value={rating} onChange={(e) => change({ rating: e.target.value })}>
            <option value="">Any</option>
            {[5, 4, 3, 2, 1].map((r) => (
              <option key={r} value={r}>
                {r} of 5
              </option>
            ))}
          </select>
        </label>
      </div>
      {moderates ? null : (
        <p className="notice" role="note">
          Moderating reviews is for the store's owners and admins; your role ({session.staff.role}) can read
          them.
        </p>
      )}
      <ListView
        what="Reviews"
        page={result.data?.reviews}
        fetching={result.fetching}
        error={result.error}
        empty="No reviews match."
        onPage={setPage}
      >
        {(items) => (
          <table className="stack">
            <caption className="sr-only">Reviews</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Rating</th>
                <th scope="col">Review</th>
                <th scope="col">Status</th>
                <th scope="col">Written</th>
                {moderates || deletes ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {items.map((review) => (
                <ReviewRow
                  key={review.id}
                  review={review}
                  moderates={moderates}
                  deletes={deletes}
                  onDeleted={reload}
                />
              ))}
            </tbody>
          </table>
        )}
      </ListView>
    </>
  );
}

/** A review; approving or rejecting updates the row in place (the mutation answers the review). */
function ReviewRow(props: { review: Review; moderates: boolean; deletes: boolean; onDeleted: () => void }) {
  const moderate = useAction(ModerateReview);
  const remove = useAction(DeleteReview);
  // The answer shows at once; the list's next read (urql reads it again after a Review mutation) wins.
  const [answer, setAnswer] = useState<{ to: Review; review: Review } | null>(null);
  const review = answer?.to === props.review ? answer.review : props.review;
  const label = `${review.title ?? 'the review'} of ${review.product.name}`;
  const set = async (status: ReviewStatus) => {
    const done = await moderate.run({ id: review.id, status });
    if (done) setAnswer({ to: props.review, review: done.moderateReview });
  };
  return (
    <tr>
      <th scope="row">{review.product.name}</th>
      <td data-label="Rating">
        <span className="sr-only">{review.rating} of 5</span>
        <span aria-hidden="true">
          {'★'.repeat(review.rating)}
          <span className="muted">{'☆'.repeat(5 - review.rating)}</span>
        </span>
      </td>
      <td className="review-text">
        {review.title ? <strong>{review.title}</strong> : null}
        {review.body ? <p>{review.body}</p> : null}
        {!review.title && !review.body ? <span className="muted">(rating only)</span> : null}
        <ErrorAlert error={moderate.error ?? remove.error} />
      </td>
      <td data-label="Status">
        <Status value={review.status} />
      </td>
      <td data-label="Written">
        <When at={review.createdAt} />
      </td>
      {props.moderates || props.deletes ? (
        <td className="actions">
          {props.moderates && review.status !== 'approved' ? (
            <button
              type="button"
              className="primary"
              aria-label={`Approve ${label}`}
              disabled={moderate.busy}
              onClick={() => void set('approved')}
            >
              Approve
            </button>
          ) : null}
          {props.moderates && review.status !== 'rejected' ? (
            <button
              type="button"
              aria-label={`Reject ${label}`}
              disabled={moderate.busy}
              onClick={() => void set('rejected')}
            >
              Reject
            </button>
          ) : null}
          {props.deletes ? (
            <ConfirmButton
              label="Delete"
              name={`Delete ${label}`}
              danger
              title="Delete this review?"
              body={`The ${review.rating}-star review of ${review.product.name} is removed for good; the customer is not told.`}
              confirm="Delete review"
              onConfirm={async () => {
                if (await remove.run({ id: review.id })) props.onDeleted();
              }}
            />
          ) : null}
        </td>
      ) : null}
    </tr>
  );
}

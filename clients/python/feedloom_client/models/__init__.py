"""Contains all the data models used in inputs/outputs"""

from .account_created import AccountCreated
from .account_state import AccountState
from .app_user_in import AppUserIn
from .app_user_out import AppUserOut
from .app_user_out_result import AppUserOutResult
from .arranged import Arranged
from .arrangement import Arrangement
from .author import Author
from .batch_out import BatchOut
from .comment_out import CommentOut
from .comment_page import CommentPage
from .context_out import ContextOut
from .explain import Explain
from .feed_item_out import FeedItemOut
from .feed_order import FeedOrder
from .feed_out import FeedOut
from .feed_page_out import FeedPageOut
from .feed_page_out_filtered_type_0 import FeedPageOutFilteredType0
from .feed_preferences import FeedPreferences
from .feed_preferences_notifications_type_0 import FeedPreferencesNotificationsType0
from .feed_preferences_out import FeedPreferencesOut
from .feed_preferences_out_notifications import FeedPreferencesOutNotifications
from .feedback import Feedback
from .feedback_kind import FeedbackKind
from .feedback_out import FeedbackOut
from .feeds_out import FeedsOut
from .filters_in import FiltersIn
from .filters_out import FiltersOut
from .flagged import Flagged
from .follow_options import FollowOptions
from .found_person_out import FoundPersonOut
from .generator_out import GeneratorOut
from .get_trending_tags_window import GetTrendingTagsWindow
from .healthz_response_healthz import HealthzResponseHealthz
from .history_out import HistoryOut
from .in_reply_to import InReplyTo
from .item import Item
from .liked import Liked
from .liked_by_reason import LikedByReason
from .limits import Limits
from .link_facet import LinkFacet
from .list_edit import ListEdit
from .list_out import ListOut
from .lists_out import ListsOut
from .media_choice_in import MediaChoiceIn
from .media_out import MediaOut
from .media_size_out import MediaSizeOut
from .media_ticket import MediaTicket
from .media_ticket_upload_headers import MediaTicketUploadHeaders
from .members_out import MembersOut
from .mention_facet import MentionFacet
from .mention_out import MentionOut
from .moderated import Moderated
from .mute_options import MuteOptions
from .muted_words_in import MutedWordsIn
from .muted_words_out import MutedWordsOut
from .new_account import NewAccount
from .new_comment import NewComment
from .new_feed_type_0 import NewFeedType0
from .new_feed_type_1 import NewFeedType1
from .new_generator import NewGenerator
from .new_list import NewList
from .new_media import NewMedia
from .new_media_content_type import NewMediaContentType
from .new_post_type_0 import NewPostType0
from .new_post_type_1 import NewPostType1
from .new_posts_out import NewPostsOut
from .new_report import NewReport
from .new_session import NewSession
from .notification_account import NotificationAccount
from .notification_out import NotificationOut
from .notification_page_out import NotificationPageOut
from .notification_type import NotificationType
from .page import Page
from .password_change import PasswordChange
from .password_confirmation import PasswordConfirmation
from .people_page_out import PeoplePageOut
from .people_results import PeopleResults
from .person_out import PersonOut
from .post_created import PostCreated
from .post_edit import PostEdit
from .post_results import PostResults
from .problem import Problem
from .problem_errors_item import ProblemErrorsItem
from .profile import Profile
from .profile_edit import ProfileEdit
from .profile_out import ProfileOut
from .queue_page import QueuePage
from .queued_post_out import QueuedPostOut
from .quoted_post import QuotedPost
from .read_marker import ReadMarker
from .reason_out import ReasonOut
from .relation import Relation
from .relation_out import RelationOut
from .reply_author import ReplyAuthor
from .reply_policy import ReplyPolicy
from .reported import Reported
from .reposter import Reposter
from .row_error import RowError
from .row_out import RowOut
from .saved_feed_page_out import SavedFeedPageOut
from .score_parts import ScoreParts
from .search_order import SearchOrder
from .search_type import SearchType
from .session_created import SessionCreated
from .session_list import SessionList
from .session_out import SessionOut
from .spike_kind import SpikeKind
from .spike_out import SpikeOut
from .spike_page import SpikePage
from .suggestion_out import SuggestionOut
from .suggestions_out import SuggestionsOut
from .tag_facet import TagFacet
from .tag_hit import TagHit
from .tag_list import TagList
from .tag_out import TagOut
from .tag_results import TagResults
from .ticket_out import TicketOut
from .trending_item import TrendingItem
from .trending_page import TrendingPage
from .trending_reason import TrendingReason
from .trending_tag_out import TrendingTagOut
from .trending_tags_page import TrendingTagsPage
from .trending_window import TrendingWindow
from .unavailable import Unavailable
from .unread_out import UnreadOut
from .version_out import VersionOut
from .visibility import Visibility
from .webhook_created import WebhookCreated
from .webhook_in import WebhookIn
from .webhook_list import WebhookList
from .webhook_out import WebhookOut

__all__ = (
    "AccountCreated",
    "AccountState",
    "AppUserIn",
    "AppUserOut",
    "AppUserOutResult",
    "Arranged",
    "Arrangement",
    "Author",
    "BatchOut",
    "CommentOut",
    "CommentPage",
    "ContextOut",
    "Explain",
    "Feedback",
    "FeedbackKind",
    "FeedbackOut",
    "FeedItemOut",
    "FeedOrder",
    "FeedOut",
    "FeedPageOut",
    "FeedPageOutFilteredType0",
    "FeedPreferences",
    "FeedPreferencesNotificationsType0",
    "FeedPreferencesOut",
    "FeedPreferencesOutNotifications",
    "FeedsOut",
    "FiltersIn",
    "FiltersOut",
    "Flagged",
    "FollowOptions",
    "FoundPersonOut",
    "GeneratorOut",
    "GetTrendingTagsWindow",
    "HealthzResponseHealthz",
    "HistoryOut",
    "InReplyTo",
    "Item",
    "Liked",
    "LikedByReason",
    "Limits",
    "LinkFacet",
    "ListEdit",
    "ListOut",
    "ListsOut",
    "MediaChoiceIn",
    "MediaOut",
    "MediaSizeOut",
    "MediaTicket",
    "MediaTicketUploadHeaders",
    "MembersOut",
    "MentionFacet",
    "MentionOut",
    "Moderated",
    "MutedWordsIn",
    "MutedWordsOut",
    "MuteOptions",
    "NewAccount",
    "NewComment",
    "NewFeedType0",
    "NewFeedType1",
    "NewGenerator",
    "NewList",
    "NewMedia",
    "NewMediaContentType",
    "NewPostsOut",
    "NewPostType0",
    "NewPostType1",
    "NewReport",
    "NewSession",
    "NotificationAccount",
    "NotificationOut",
    "NotificationPageOut",
    "NotificationType",
    "Page",
    "PasswordChange",
    "PasswordConfirmation",
    "PeoplePageOut",
    "PeopleResults",
    "PersonOut",
    "PostCreated",
    "PostEdit",
    "PostResults",
    "Problem",
    "ProblemErrorsItem",
    "Profile",
    "ProfileEdit",
    "ProfileOut",
    "QueuedPostOut",
    "QueuePage",
    "QuotedPost",
    "ReadMarker",
    "ReasonOut",
    "Relation",
    "RelationOut",
    "ReplyAuthor",
    "ReplyPolicy",
    "Reported",
    "Reposter",
    "RowError",
    "RowOut",
    "SavedFeedPageOut",
    "ScoreParts",
    "SearchOrder",
    "SearchType",
    "SessionCreated",
    "SessionList",
    "SessionOut",
    "SpikeKind",
    "SpikeOut",
    "SpikePage",
    "SuggestionOut",
    "SuggestionsOut",
    "TagFacet",
    "TagHit",
    "TagList",
    "TagOut",
    "TagResults",
    "TicketOut",
    "TrendingItem",
    "TrendingPage",
    "TrendingReason",
    "TrendingTagOut",
    "TrendingTagsPage",
    "TrendingWindow",
    "Unavailable",
    "UnreadOut",
    "VersionOut",
    "Visibility",
    "WebhookCreated",
    "WebhookIn",
    "WebhookList",
    "WebhookOut",
)
